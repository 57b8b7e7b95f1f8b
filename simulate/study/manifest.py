"""``DIR/manifest.json``: what a run was, so that its data can be trusted and reproduced.

The manifest records the package version, the git commit of the checkout (if any), the
sha256 of every data file (and whether it is a provisional stand-in), the full config (master
seed, games, strategies, variants and their contents, trace), how it was executed (jobs,
backend), Python and platform, and the start and end times. Only ``config`` decides whether
a directory may be resumed: the rest may differ between the sessions of one run.

It is written atomically (temporary file, then rename) at the start of a run and again at
its end.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from simulate import native
from simulate.games import Game
from simulate.games import get as get_game

FORMAT = 1
MANIFEST = "manifest.json"
PACKAGE = "vijayanagara-sim"
_ROOT = Path(__file__).resolve().parents[2]  # the checkout (pyproject.toml, .git)


def now() -> str:
    """The current UTC time, ISO 8601, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def package_version() -> str:
    """The installed version of the package, else the one in pyproject.toml, else unknown."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        pass
    pyproject = _ROOT / "pyproject.toml"
    try:
        import tomllib

        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, KeyError, ValueError):
        return "unknown"


def git_commit(start: Path = _ROOT) -> str | None:
    """The commit checked out in the git work tree holding ``start``, read from ``.git``.

    Reads the files directly (no ``git`` process); None when there is no repository.
    """
    for folder in (start, *start.parents):
        git = folder / ".git"
        if git.is_file():  # a worktree or submodule: "gitdir: <path>"
            try:
                text = git.read_text(encoding="utf-8").strip()
            except OSError:
                return None
            if not text.startswith("gitdir:"):
                return None
            git = (folder / text.split(":", 1)[1].strip()).resolve()
        if git.is_dir():
            return _read_head(git)
    return None


def _read_head(git: Path) -> str | None:
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head or None
    ref = head.split(":", 1)[1].strip()
    common = git
    commondir = git / "commondir"
    if commondir.is_file():
        common = (git / commondir.read_text(encoding="utf-8").strip()).resolve()
    for base in (git, common):
        try:
            return (base / ref).read_text(encoding="utf-8").strip()
        except OSError:
            pass
        try:
            for line in (base / "packed-refs").read_text(encoding="utf-8").splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref:
                    return parts[0]
        except OSError:
            pass
    return None  # an unborn branch


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


_PROVISIONAL = re.compile(r"^[^#]*:\s*provisional\b", re.MULTILINE | re.IGNORECASE)


def _is_provisional(path: Path) -> bool:
    """True for a data file with entries marked provisional (``confidence: provisional``,
    ``status: provisional``...); a mere mention in a comment does not count."""
    try:
        return bool(_PROVISIONAL.search(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return False


def data_files(data_dir: Path | None = None) -> dict[str, dict[str, Any]]:
    """Every file under a game's data folder (the default game's when None): sha256 and
    whether it is provisional (it marks entries so, as Vijayanagara's map and Event deck
    mark their stand-ins)."""
    data_dir = get_game().data_dir() if data_dir is None else data_dir
    out: dict[str, dict[str, Any]] = {}
    if data_dir is None:
        return out
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(data_dir).as_posix()
        out[rel] = {"sha256": sha256_file(path), "provisional": _is_provisional(path)}
    return out


def data_digest(files: dict[str, dict[str, Any]]) -> str:
    """One digest over the data files' names and digests."""
    text = json.dumps({k: v["sha256"] for k, v in files.items()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def canonical_digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def environment() -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "compiled": native.summary(),  # speed only: compiled modules play the same games
    }


def read(directory: Path) -> dict[str, Any] | None:
    """The manifest in ``directory``, None if there is none; ValueError if unreadable."""
    path = Path(directory) / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: unreadable manifest (not a JSON object)")
    return data


def write(directory: Path, manifest: dict[str, Any]) -> Path:
    """Write ``manifest.json`` atomically (temporary name, fsync, rename)."""
    path = Path(directory) / MANIFEST
    tmp = path.with_name(f".{MANIFEST}.{os.getpid()}.tmp")
    text = json.dumps(manifest, indent=2, sort_keys=False, default=str) + "\n"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def provisional_note(game: Game | None = None) -> str | None:
    """The game's sentence on its stand-in data (None when its data are the printed game's)."""
    return (game or get_game()).provisional


def provenance(
    files: dict[str, dict[str, Any]] | None = None, game: Game | None = None
) -> dict[str, Any]:
    """The manifest fields every command that writes a dataset records: package, commit,
    the game, its data files and whether they are provisional, environment, command line,
    times."""
    import sys

    game = game or get_game()
    files = data_files(game.data_dir()) if files is None else files
    return {
        "format": FORMAT,
        "package": {"name": PACKAGE, "version": package_version()},
        "git_commit": git_commit(),
        "data_files": files,
        "provisional": {
            "any": any(f["provisional"] for f in files.values()),
            "files": [name for name, f in files.items() if f["provisional"]],
            "note": game.provisional,
        },
        "game": game.ref or game.name,
        "environment": environment(),
        "argv": [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv else [],
        "start_time": now(),
        "end_time": None,
        "status": "running",
    }


def variant_entry(variant: Any, out: Path, game: str | None = None) -> dict[str, Any]:
    """A variant as a manifest records it: its content and digest, and where it came from (a
    built-in by name, a file by its path relative to the run folder ``out``)."""
    builtin = get_game(game).variants_dir()
    entry: dict[str, Any] = {"name": variant.name, "description": variant.description}
    path = variant.path
    if path is not None and builtin and Path(path).resolve().parent == builtin.resolve():
        entry |= {"path": None, "builtin": True}
    elif path is not None:
        rel = os.path.relpath(Path(path).resolve(), Path(out).resolve())
        entry["path"] = Path(rel).as_posix()
    else:
        entry["path"] = None
    return entry | {"digest": variant.digest, "content": variant.content}
