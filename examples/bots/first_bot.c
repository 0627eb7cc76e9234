/* A bot for ktenv's stdio protocol (docs/bots.md) in C, with no JSON library: it asks for the legal actions
 * alone ("fields": []), reads each message as one line and picks the ids out of its "actions" list.
 * It plays the last legal action listed (passing is listed first where a decision can be passed), and a
 * seeded random one every fourth decision.
 *
 *     cc -O2 -o first_bot examples/bots/first_bot.c
 *     ktenv tournament --game kingsburg --players 2 --agents 'cmd:./first_bot,expert'
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 1;

static unsigned long long next_random(void) { /* xorshift64 */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    long ids[4096];
    unsigned long decisions = 0;
    while (getline(&line, &size, stdin) > 0) {
        if (strstr(line, "\"type\":\"hello\"")) {
            const char *seed = strstr(line, "\"seed\":");
            state = seed ? strtoull(seed + 7, NULL, 10) | 1 : 1;
            fprintf(stderr, "C bot: ready\n");
            printf("{\"type\":\"ready\",\"fields\":[]}\n");
        } else if (strstr(line, "\"type\":\"decide\"")) {
            int n = 0;
            for (const char *p = strstr(line, "\"actions\":"); p && (p = strstr(p, "\"id\":")) && n < 4096; p += 5)
                ids[n++] = strtol(p + 5, NULL, 10);
            if (n == 0) {
                fprintf(stderr, "C bot: no actions in the message\n");
                return 1;
            }
            long pick = (++decisions % 4 == 0) ? ids[next_random() % (unsigned long long)n] : ids[n - 1];
            printf("{\"action\":%ld}\n", pick);
        } else {
            break; /* "end" */
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
