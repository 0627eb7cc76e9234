"""A language model as a player: ``llm:url=URL,model=NAME`` asks an OpenAI-compatible chat endpoint
(``POST URL/chat/completions``) at each decision, with the seat's view as text and its legal actions
numbered (`ktenv.text`), and plays the number it answers.

Options (comma-separated ``KEY=VALUE``; ``url`` first, since it holds a colon):

- ``url``: the endpoint's base URL (default: $OPENAI_BASE_URL); ``model``: the model's name;
- ``key``: the environment variable holding the API key (default OPENAI_API_KEY; none set: no key sent) -
  the key itself is never part of the agent's name, which the records keep;
- ``timeout``: seconds per decision, all tries together (default 60); ``retries``: further tries after a failed
  or unreadable answer (default 2); ``fallback``: the agent that decides when every try failed (default
  random; any agent of the game that needs no search worlds);
- ``temperature`` (default 0), ``max_tokens`` (default 512), ``prompt``: a file holding another system
  template (`ktenv.text.prompt`), ``log``: the folder of the transcripts (default $KTENV_LLM_LOGS, else
  runs/llm_logs).

Every decision is written to a JSON-lines transcript (one file per game and seat): the prompt, each reply,
the action and where it came from (``model``, ``only`` when there was one legal action and nothing was
asked, ``fallback`` with the reason); its last line, when the game ends, holds `stats`: the decisions, calls,
retries and fallbacks.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import numpy as np

from ..text import prompt as prompts
from ..text import view as text

DEFAULTS = {"url": "", "model": "", "key": "OPENAI_API_KEY", "timeout": 60.0, "retries": 2, "fallback": "random",
            "temperature": 0.0, "max_tokens": 512, "prompt": "", "log": "", "backoff": 0.5}
NUMBERS = {"timeout": float, "retries": int, "temperature": float, "max_tokens": int, "backoff": float}


def parse_options(argument: str) -> dict:
    """``url=...,model=...`` (or a bare model name) -> the options, each checked."""
    options = dict(DEFAULTS)
    if "=" not in argument:
        argument = f"model={argument}"
    for item in (t.strip() for t in argument.split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep or key not in DEFAULTS:
            raise ValueError(f"llm: {item!r} is not an option (known: {', '.join(DEFAULTS)})")
        if key in NUMBERS:
            try:
                options[key] = NUMBERS[key](value)
            except ValueError:
                raise ValueError(f"llm: {key}={value}: expected a number") from None
        else:
            options[key] = value
    options["url"] = options["url"] or os.environ.get("OPENAI_BASE_URL", "")
    if not options["url"].startswith(("http://", "https://")):
        raise ValueError("llm: give the endpoint as url=http://HOST/v1 (or set OPENAI_BASE_URL)")
    if not options["model"]:
        raise ValueError("llm: give the model as model=NAME")
    if options["timeout"] <= 0 or options["retries"] < 0 or options["max_tokens"] < 1:
        raise ValueError("llm: timeout must be above 0, retries at least 0, max_tokens at least 1")
    return options


class LLMAgent:
    """One seat played by a chat model; see the module's docstring."""

    name = "llm"
    needs_observation = True
    needs_seat = True

    def __init__(self, argument: str, game: str, seed: int | None = None, transport=None) -> None:
        import httpx

        from ..registry import game as lookup

        self.options = parse_options(argument)
        self.game, self.seed = game, seed
        self.fallback = lookup(game).agents.AGENTS.make(self.options["fallback"], seed=seed)
        if getattr(self.fallback, "needs_worlds", False):
            raise ValueError(f"llm: fallback={self.options['fallback']} searches worlds; give one that does not")
        self.system = prompts.SYSTEM_TEMPLATE
        if self.options["prompt"]:
            self.system = Path(self.options["prompt"]).expanduser().read_text()
        key = os.environ.get(self.options["key"], "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.client = httpx.Client(base_url=self.options["url"].rstrip("/") + "/", headers=headers,
                                   transport=transport)
        self.stats = {"decisions": 0, "calls": 0, "retries": 0, "fallbacks": 0}
        self.transcript: Path | None = None

    def reset(self, seed: int | None = None) -> None:
        self.fallback.reset(seed)

    def close(self) -> None:
        """The game is over: the transcript ends with the counts (calls, retries, fallbacks)."""
        if self.transcript is not None:
            with open(self.transcript, "a") as f:
                f.write(json.dumps({"stats": self.stats}) + "\n")
        self.client.close()

    def act(self, observation, action_mask: np.ndarray) -> int:
        vector, mask = text.vector_of(observation), np.asarray(action_mask)
        seat = observation.get("seat") if isinstance(observation, dict) else None
        seen = text.seat_text(self.game, vector, mask)
        entry: dict = {"n": self.stats["decisions"], "seat": seat, "choices": len(seen.choices)}
        self.stats["decisions"] += 1
        if len(seen.choices) == 1:  # nothing to decide: no call
            action, entry["source"] = seen.choices[0][0], "only"
        else:
            players = int(text.bot_view(self.game).players(vector))
            messages = prompts.messages(self.game, players, seen, self.system)
            entry["prompt"] = messages[-1]["content"]
            choice, entry["replies"], error = self._ask(messages, len(seen.choices))
            if choice is not None:
                action, entry["source"] = seen.choices[choice - 1][0], "model"
            else:
                self.stats["fallbacks"] += 1
                action = int(self.fallback.act({"observation": vector, "action_mask": mask}, mask))
                entry["source"], entry["error"] = "fallback", error
        entry["action"] = int(action)
        entry["label"] = dict(seen.choices)[int(action)]
        self._write(seat, entry)
        return int(action)

    def _ask(self, messages: list[dict], k: int) -> tuple[int | None, list[str], str]:
        """(the 1-based choice or None, every reply, why the last try failed) within the decision's time."""
        import httpx

        deadline = time.monotonic() + self.options["timeout"]
        replies: list[str] = []
        error = ""
        for attempt in range(self.options["retries"] + 1):
            left = deadline - time.monotonic()
            if left <= 0:
                return None, replies, error or "out of time"
            if attempt:
                self.stats["retries"] += 1
            self.stats["calls"] += 1
            try:
                reply = self._call(messages, left)
            except httpx.HTTPStatusError as exc:
                error = f"HTTP {exc.response.status_code}"
                if exc.response.status_code < 500 and exc.response.status_code != 429:
                    return None, replies, error  # refused (a bad key, an unknown model): asking again will not help
            except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
                error = f"{type(exc).__name__}: {exc}"[:300]
            else:
                replies.append(reply)
                choice = prompts.parse_choice(reply, k)
                if choice is not None:
                    return choice, replies, ""
                error = "the reply named no action"
                messages = [*messages, {"role": "assistant", "content": reply},
                            {"role": "user", "content": prompts.RETRY_TEMPLATE.format(k=k)}]
                continue
            time.sleep(max(0.0, min(self.options["backoff"] * 2 ** attempt, deadline - time.monotonic())))
        return None, replies, error

    def _call(self, messages: list[dict], seconds: float) -> str:
        body = {"model": self.options["model"], "messages": messages, "temperature": self.options["temperature"],
                "max_tokens": self.options["max_tokens"]}
        response = self.client.post("chat/completions", json=body, timeout=seconds)
        response.raise_for_status()
        content = response.json()["choices"][0]["message"]["content"]
        if not isinstance(content, str):
            raise ValueError("the reply's content is not text")
        return content

    def _write(self, seat, entry: dict) -> None:
        if self.transcript is None:
            folder = Path(self.options["log"] or os.environ.get("KTENV_LLM_LOGS", "runs/llm_logs"))
            folder.mkdir(parents=True, exist_ok=True)
            model = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.options["model"])[:40]
            self.transcript = folder / f"{self.game}_{model}_seat{seat}_{self.seed}.jsonl"
            self.transcript.write_text("")  # the same game played again starts its transcript afresh
        with open(self.transcript, "a") as f:
            f.write(json.dumps(entry) + "\n")


def make(argument: str, game: str, **kwargs) -> LLMAgent:
    """``llm:OPTIONS``: the agent factory (`ktenv.agents`)."""
    return LLMAgent(argument, game, **kwargs)


__all__ = ["DEFAULTS", "LLMAgent", "make", "parse_options"]
