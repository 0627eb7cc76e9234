"""A stdio bot that misbehaves on purpose (tests/bots): ``python faulty_bot.py FAULT AFTER`` plays legal actions
(the first listed) for AFTER decisions, then does FAULT: crash (exits 3 with a message on stderr), hang (stops
answering, ignores SIGTERM and its stdin), garbage (prints text that is not JSON), illegal (answers an action
that is not legal), fork (starts a child that sleeps, then hangs: the child must die with the game), or ok."""

import json
import os
import signal
import subprocess
import sys
import time


def main() -> None:
    fault, after = sys.argv[1], int(sys.argv[2])
    seen = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            reply = {"type": "ready", "fields": []}
        elif message["type"] == "decide":
            if seen >= after:
                misbehave(fault, message)
            seen += 1
            reply = {"action": message["actions"][0]["id"]}
        else:
            return
        print(json.dumps(reply), flush=True)


def misbehave(fault: str, message: dict) -> None:
    if fault == "crash":
        print("faulty bot: crashing on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    if fault in ("hang", "fork"):
        if fault == "fork":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            print(f"child {child.pid}", file=sys.stderr, flush=True)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        os.close(0)
        time.sleep(600)
    if fault == "garbage":
        print("I think I will take the second one", flush=True)
    if fault == "illegal":
        legal = {a["id"] for a in message["actions"]}
        print(json.dumps({"action": next(a for a in range(10**6) if a not in legal)}), flush=True)


if __name__ == "__main__":
    main()
