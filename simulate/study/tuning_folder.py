"""The out folder of a bot tuning: its state (``tune.json``), the log of every evaluation
(``evaluations/*.parquet``, replayed on resume) and the tuned weights file."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simulate.study import manifest as manifest_mod
from simulate.study.errors import RunError

STATE_FILE = "tune.json"
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")  # a TOML key that needs no quotes


BOT_KEYS = ("round", "faction", "kind", "generation", "trial")


class EvaluationLog:
    """The evaluations already in ``OUT/evaluations`` (for the replay), and new ones, by the
    values of their ``keys`` columns (a bot tuning's by default)."""

    def __init__(self, out: Path, keys: Sequence[str] = BOT_KEYS) -> None:
        import pyarrow.parquet as pq

        self.folder = out / "evaluations"
        self.keys = tuple(keys)
        self.rows: dict[tuple, dict[str, Any]] = {}
        for shard in sorted(self.folder.glob("part-*.parquet")):
            for row in pq.read_table(shard).to_pylist():
                self.rows[self.key(row)] = row

    def key(self, row: dict[str, Any]) -> tuple:
        return tuple(row[k] for k in self.keys)

    def add(self, name: str, rows: list[dict[str, Any]]) -> None:
        """Write ``rows`` as the shard ``part-NAME.parquet`` (atomically) and keep them."""
        import pyarrow as pa

        from simulate.study import dataset

        dataset.write_shard(self.folder, f"part-{name}.parquet", pa.Table.from_pylist(rows))
        for row in rows:
            self.rows[self.key(row)] = row

    def get(self, rnd: int, faction: str, cands: Sequence[Any]) -> list[dict] | None:
        found = [self.rows.get((rnd, faction, c.kind, c.generation, c.trial)) for c in cands]
        if any(r is None for r in found):
            return None
        for row, cand in zip(found, cands, strict=True):
            if json.loads(row["params"]) != json.loads(json.dumps(cand.values, sort_keys=True)):
                raise RunError(
                    f"the log in {self.folder} does not match this tuning (round {rnd}, "
                    f"{faction}, {cand.kind} {cand.trial}): use --force or another --out"
                )
        return found  # type: ignore[return-value]

    def write(self, rnd: int, faction: str, tag: str, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            row["round"] = rnd
        self.add(f"r{rnd:03d}-{faction}-{tag}", rows)


def check_out(
    out: Path, search: Any, force: bool, state_file: str = STATE_FILE, grows: str = "rounds"
) -> dict[str, Any] | None:
    """The state of the search to resume or continue (the same config with as much or more
    of ``grows``), or None for a new one; RunError if ``out`` holds something else (without
    ``force``). ``search`` has ``config()`` and the attribute ``grows``."""
    if out.exists() and not out.is_dir():
        raise RunError(f"output {out} exists and is not a directory")
    path = out / state_file
    if not path.is_file():
        if out.is_dir() and any(out.iterdir()) and not force:
            raise RunError(
                f"{out} is not empty and holds no {state_file}; use --force or another --out"
            )
        return None
    try:
        state = json.loads(path.read_text())
    except ValueError:
        if force:
            return None
        raise RunError(f"{path} is not valid JSON; use --force to replace it") from None
    old = dict(state.get("config", {}))
    new = search.config()
    same = {k: v for k, v in old.items() if k != grows} == {
        k: v for k, v in new.items() if k != grows
    }
    if same and old.get(grows, 0) <= new[grows]:
        return state
    if force:
        return None
    what = (
        f"the same search with more --{grows} ({old.get(grows)} > {new[grows]})"
        if same
        else f"a different {new.get('kind', 'search')}"
    )
    raise RunError(f"{out} holds {what}; use --force to replace it or choose another --out")


def wipe(out: Path, files: Sequence[str] = (STATE_FILE, "weights.toml")) -> None:
    import shutil

    for name in ("evaluations", "report", "ladder"):
        if (out / name).is_dir():
            shutil.rmtree(out / name)
    for name in files:
        (out / name).unlink(missing_ok=True)


def new_state(search: Any, command: Sequence[str] | None) -> dict[str, Any]:
    return manifest_mod.provenance(search.data_files) | {
        "kind": search.config()["kind"],
        "command": list(command) if command else None,
        "start_time": manifest_mod.now(),
    }


def write_state(out: Path, state: dict[str, Any], state_file: str = STATE_FILE) -> None:
    tmp = out / f".{state_file}.tmp"
    tmp.write_text(json.dumps(state, indent=2, sort_keys=True, default=str) + "\n")
    tmp.replace(out / state_file)


def total_games(log: EvaluationLog) -> int:
    return int(sum(r["games"] for r in log.rows.values()))


def read_state(out: Path) -> dict[str, Any]:
    """``OUT/tune.json``, or RunError (one line)."""
    try:
        return json.loads((Path(out) / STATE_FILE).read_text())
    except (OSError, ValueError):
        raise RunError(f"{out} holds no finished tuning ({STATE_FILE} missing or bad)") from None


def toml_key(name: str) -> str:
    """``name`` as a TOML key: bare if it may be, else quoted (a fitted term such as
    ``khalji*c:conscript``)."""
    return name if BARE_KEY.fullmatch(name) else json.dumps(name)


def evaluations(out: Path, seats: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Every evaluation row of a tuning, in the order it was made (``seats`` in turn order;
    None: the folder's game's)."""
    rows = list(EvaluationLog(Path(out)).rows.values())
    order = {"incumbent": 0, "candidate": 1, "validation": 2}
    if seats is None:  # the tuning's, as its state records them (before: the default game's)
        from simulate.games import get

        state = _state_or_none(Path(out))
        seats = (state or {}).get("seats") or get((state or {}).get("game")).seats()
    seats = list(seats)
    return sorted(
        rows,
        key=lambda r: (
            r["round"], seats.index(r["faction"]), order[r["kind"]], r["generation"], r["trial"]
        ),
    )  # fmt: skip


def _state_or_none(out: Path) -> dict[str, Any] | None:
    try:
        found = json.loads((out / STATE_FILE).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None
