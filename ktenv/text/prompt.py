"""The prompt a language model plays from: a system message that says what it plays and how to answer, and at
each decision a user message with the seat's view (`view.render`: the table, the decision, the legal actions
numbered 1..k). `parse_choice` reads the number back out of the model's reply.

The templates are plain `str.format` text; ``llm:...,prompt=FILE`` (agents.llm) reads another system
template from a file, with the same fields: {title} (the game), {players}, {k} is in the user template only.
"""

from __future__ import annotations

import re

from .. import registry
from .view import SeatText, render

SYSTEM_TEMPLATE = """You are playing the board game {title} with {players} players, as one of them.
You see only what your seat may know: your own counters, the public facts of the others, the decision you face.
Players are named from your seat: "you", then opp1, opp2, ... in seat order to your left.
At each decision you get the table as you see it and your legal actions, numbered.
Think as briefly as you like, then end your reply with one line: ANSWER: <the number of your choice>."""

USER_TEMPLATE = """{view}

Choose one action: reply with ANSWER: followed by a number from 1 to {k}."""

RETRY_TEMPLATE = ("That reply named no action from 1 to {k}. "
                  "End your reply with one line: ANSWER: <a number from 1 to {k}>.")


def messages(game: str, players: int, text: SeatText, system: str = SYSTEM_TEMPLATE) -> list[dict]:
    """The chat messages of one decision (OpenAI's chat format: role and content)."""
    title = registry.game(game).title
    return [{"role": "system", "content": system.format(title=title, players=players)},
            {"role": "user", "content": USER_TEMPLATE.format(view=render(text), k=len(text.choices))}]


_ANSWER = re.compile(r"answer\W{0,3}\s*(\d+)", re.IGNORECASE)
_NUMBER = re.compile(r"\b(\d+)\b")


def parse_choice(reply: str, k: int) -> int | None:
    """The 1-based choice a reply names: the last ``ANSWER: n``, else a reply that is one number alone; None
    when it names none from 1 to `k` (a number in the middle of free text is not taken for a choice)."""
    found = _ANSWER.findall(reply)
    if found:
        n = int(found[-1])
    elif _NUMBER.fullmatch(reply.strip().rstrip(".")):
        n = int(reply.strip().rstrip("."))
    else:
        return None
    return n if 1 <= n <= k else None


__all__ = ["RETRY_TEMPLATE", "SYSTEM_TEMPLATE", "USER_TEMPLATE", "messages", "parse_choice"]
