"""ktenv.files: a file is replaced whole or left as it was."""

from __future__ import annotations

import pytest

from ktenv.files import write_text_atomically


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "deep" / "record.json"
    write_text_atomically(path, "old")
    assert path.read_text() == "old"
    with pytest.raises(UnicodeEncodeError):
        write_text_atomically(path, "\ud800")  # cannot be encoded: fails after the temporary is opened
    assert path.read_text() == "old"
    assert sorted(p.name for p in path.parent.iterdir()) == ["record.json"]
