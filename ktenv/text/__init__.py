"""A seat's view as text and named fields, for bots in any language (`ktenv.agents.stdio`) and language models
(`ktenv.agents.llm`): made from the seat's observation vector and action mask alone, for every game with the
registry part ``bot_view`` (docs/bots.md).

    from ktenv import text
    seen = text.seat_text(game, observation, mask)   # `game`: a registered game's name
    print(text.render(seen))                          # the table, the decision, the legal actions numbered 1..k
    text.fields(game, observation)                    # the vector's non-zero values by section, row and column
    text.messages(game, players, seen)                # the chat prompt of that decision
"""

from .prompt import RETRY_TEMPLATE, SYSTEM_TEMPLATE, USER_TEMPLATE, messages, parse_choice
from .view import SeatText, bot_view, fields, layout_doc, numbered, render, seat_text, vector_of

__all__ = ["RETRY_TEMPLATE", "SYSTEM_TEMPLATE", "USER_TEMPLATE", "SeatText", "bot_view", "fields", "layout_doc",
           "messages", "numbered", "parse_choice", "render", "seat_text", "vector_of"]
