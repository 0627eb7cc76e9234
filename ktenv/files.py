"""Files written whole or not at all: the text goes to a temporary name beside the file, then replaces it,
so a crash, Ctrl-C or a full disk never leaves half a record, save, summary or manifest behind."""

from __future__ import annotations

import os
from pathlib import Path


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write `text` to `path` (its folder is made); the old file, if any, stays until the new one is whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
