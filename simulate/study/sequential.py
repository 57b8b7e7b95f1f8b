"""``vsim run --until-clear``: play a study look after look on common seeds and stop when
every outcome of every comparison (each later variant against the first) is decided by the
anytime-valid intervals of ``simulate.analysis.sequential``, when ``--max-games`` are played,
or (``--stop-at-first-change``) at the first change (issues 19, 64).

Each look extends the run in ``out`` to more games on the same seeds (``runs.run`` plays only
the new games), so a stopped or interrupted sequential run resumes like any run, and its
rows are those a fixed-size run of the same length would hold. The rule, every look and
the decisions are kept in the manifest under ``sequential``, with why it stopped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from simulate.analysis import sequential as seq
from simulate.study import dataset, runs
from simulate.study import manifest as manifest_mod
from simulate.study.errors import RunError
from simulate.study.specs import Study


def pairs(outcome: dict[str, list[Any]], first: str, other: str) -> tuple[list, list]:
    """The winners of ``first`` and ``other`` on the game indices both finished."""
    by: dict[str, dict[int, Any]] = {first: {}, other: {}}
    for v, k, w, e in zip(
        outcome["variant"], outcome["game_index"], outcome["winner"], outcome["error"],
        strict=True,
    ):  # fmt: skip
        if v in by and e is None:
            by[v][k] = w
    common = sorted(set(by[first]) & set(by[other]))
    return [by[first][k] for k in common], [by[other][k] for k in common]


def run_until_clear(
    study: Study,
    out: Path,
    rule: seq.Rule,
    max_games: int,
    *,
    on_look: Callable[[int, list[seq.Look]], None] | None = None,
    **run_options: Any,
) -> tuple[runs.RunReport, list[seq.Look]]:
    """Play looks of ``study.games`` more games per variant until ``seq.stopping`` says
    stop; returns the run report (games played and seconds over every look; games already
    there before the first) and the last looks."""
    names = [v.name for v in study.variants]
    if len(names) < 2:
        raise RunError("--until-clear needs at least two --variant (or a --sweep) to compare")
    if study.lineups:
        raise RunError("--until-clear does not take --lineup: run one lineup at a time")
    if max_games < study.games:
        raise RunError(f"--max-games ({max_games}) must be at least --games ({study.games})")
    step = study.games
    n = max(step, _games_there(out, study))
    force = run_options.pop("force", False)
    played, seconds, already = 0, 0.0, None  # over every look: what this command did
    earlier = _earlier_looks(out, study, n)
    while True:
        now = dataclasses.replace(study, games=min(n, max_games))
        report = runs.run(now, out, force=force, **run_options)
        force = False
        played, seconds = played + report.played, seconds + report.seconds
        already = report.already if already is None else already
        outcome = dataset.outcomes(out)
        looks = [
            seq.look(names[0], b, *pairs(outcome, names[0], b), rule, earlier.get(b))
            for b in names[1:]
        ]
        games = report.total // len(names)
        reason = seq.stopping(looks, rule, games, max_games)
        _record(out, rule, max_games, step, looks, games, reason)
        if on_look is not None:
            on_look(n, looks)
        if reason is not None:
            whole = dataclasses.replace(report, played=played, already=already, seconds=seconds)
            return whole, looks
        earlier = {lk.b: lk for lk in looks}
        n = min(n + step, max_games)


def _games_there(out: Path, study: Study) -> int:
    """Games per variant already in ``out`` from this study (0 if none or another run)."""
    try:
        man = manifest_mod.read(Path(out))
    except ValueError:
        return 0
    if not man:
        return 0
    old = dict(man.get("config") or {})
    games = old.pop("games", 0)
    new = study.config()
    new.pop("games")
    return games if old == new and isinstance(games, int) else 0


def _earlier_looks(out: Path, study: Study, games: int) -> dict[str, dict[str, Any]]:
    """Each comparison's last recorded look before ``games`` games per variant (variant B
    -> its JSON), whose intervals a resumed study's next look intersects with."""
    if not _games_there(out, study):
        return {}
    man = manifest_mod.read(Path(out)) or {}
    looks = [lk for lk in (man.get("sequential") or {}).get("looks", []) if lk["games"] < games]
    return {c["b"]: c for c in looks[-1]["comparisons"]} if looks else {}


def _record(
    out: Path,
    rule: seq.Rule,
    max_games: int,
    step: int,
    looks: Sequence[seq.Look],
    games: int,
    reason: str | None,
) -> None:
    """The rule, this look (replacing any later one of an earlier session) and why the
    study stopped (``running`` while it plays on)."""
    man = manifest_mod.read(Path(out)) or {}
    entry = man.setdefault("sequential", {"looks": []})
    entry["rule"] = rule.to_json() | {"max_games": max_games, "look_games": step}
    entry["looks"] = [lk for lk in entry["looks"] if lk["games"] < games]
    entry["looks"].append({"games": games, "comparisons": [lk.to_json() for lk in looks]})
    entry["status"] = reason or seq.RUNNING
    entry["reason"] = seq.STOP_REASONS[entry["status"]]
    entry["games_used"] = games
    manifest_mod.write(Path(out), man)
