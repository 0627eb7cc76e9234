// A bot for ktenv's stdio protocol (docs/bots.md) in JavaScript (Node.js, no packages): one JSON message per
// line on stdin, one answer per line on stdout. It plays a legal action at random (a seeded generator, so a
// game replays the same), and logs to stderr, which ktenv keeps in the bot's log file.
//
//     ktenv tournament --game kingsburg --players 2 --agents 'cmd:node examples/bots/random_bot.js,expert'

const readline = require("readline");

let state = 1;
function random() {  // a small linear congruential generator, seeded by the hello
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === "hello") {
    state = Number(BigInt(message.seed ?? 1) % 2147483648n) || 1;
    console.error(`node bot: ${message.title}, seat ${message.seat} of ${message.players}`);
    process.stdout.write(JSON.stringify({ type: "ready", fields: [] }) + "\n");
  } else if (message.type === "decide") {
    const actions = message.actions;
    const pick = actions[Math.floor(random() * actions.length)];
    process.stdout.write(JSON.stringify({ action: pick.id }) + "\n");
  } else {
    input.close();
  }
});
