"""A bot for ktenv's stdio protocol (docs/bots.md), in plain Python with no ktenv import: it reads one JSON
message per line on stdin and answers on stdout. It plays a legal action at random, preferring any action
over passing when it has a choice (a pass is the first action listed where a decision can be passed).

    ktenv tournament --game kingsburg --players 2 --agents 'cmd:python examples/bots/random_bot.py,expert'
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            rng.seed(message["seed"])
            print(f"playing {message['title']} in seat {message['seat']} of {message['players']}", file=sys.stderr)
            reply = {"type": "ready", "fields": ["observation"]}  # the named fields are enough here
        elif message["type"] == "decide":
            actions = message["actions"]
            choices = [a for a in actions if a["label"] not in ("done", "pass")] or actions
            reply = {"action": rng.choice(choices)["id"]}
        else:  # "end": the game is over
            break
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
