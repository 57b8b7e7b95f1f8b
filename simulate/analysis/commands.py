"""Commands as a report shows them (issue 64): ones a reader can rerun from the repository
root (an absolute path inside the working folder made relative) and read (wrapped with shell
line continuations, never a 2,000-character line)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from pathlib import Path

WIDTH = 88  # the longest line of a wrapped command


def shown_path(text: str, base: Path | None = None) -> str:
    """``text`` relative to ``base`` (the working folder) when it is an absolute path inside
    it, else as given."""
    base = Path.cwd() if base is None else base
    path = Path(text)
    if not path.is_absolute():
        return text
    try:
        return os.fspath(path.resolve().relative_to(base.resolve())) or "."
    except ValueError:
        return text


def rerunnable(command: str, base: Path | None = None) -> str:
    """``command`` with each absolute path inside ``base`` made relative to it (a word
    ``--out=PATH`` too), quoted as a shell reads it."""
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: leave it as written
        return command
    return rerunnable_words(words, base)


def rerunnable_words(words: Sequence[str], base: Path | None = None) -> str:
    """``rerunnable`` of a command recorded as its words (a manifest's ``command``): each
    word one word of the line, a path with a space in it too."""
    out = []
    for word in map(str, words):
        key, eq, value = word.partition("=")
        if eq and key.startswith("--"):
            out.append(f"{key}={shown_path(value, base)}")
        else:
            out.append(shown_path(word, base))
    return shlex.join(out)


def wrapped(command: str, width: int = WIDTH) -> str:
    """``command`` over lines of at most ``width`` characters (a longer word stands alone),
    each but the last ending in `` \\``, continuation lines indented by four spaces; an
    option stays on the line of its value."""
    try:
        words = [shlex.quote(w) for w in shlex.split(command)]
    except ValueError:
        words = command.split()
    units: list[str] = []
    for word in words:  # "--games 200" is one unit
        if (
            units
            and units[-1].startswith("-")
            and " " not in units[-1]
            and not word.startswith("-")
        ):
            units[-1] += " " + word
        else:
            units.append(word)
    lines: list[str] = []
    line = ""
    for unit in units:
        room = width - (4 if lines else 0) - 2  # the indent, and " \"
        if line and len(line) + 1 + len(unit) > room:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return " \\\n".join(("    " + x if i else x) for i, x in enumerate(lines))
