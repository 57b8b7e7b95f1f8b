"""Where a run's numbers come from: provenance rows, provisional data, the run's command."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simulate.analysis import terms
from simulate.analysis.commands import shown_path
from simulate.analysis.run import Run
from simulate.analysis.tables import failure_counts
from simulate.games import DEFAULT, Game
from simulate.study import manifest as manifest_mod

ROOT = Path(__file__).resolve().parents[2]  # the checkout: a data file is cited from here


def data_path(game: Game, name: str | None = None) -> str:
    """A file of the game's data folder (or the folder) as a report cites it: its path
    from the repository root, else as it lies."""
    folder = game.data_dir()
    if folder is None:
        return str(name or "")
    path = folder / name if name else folder
    return shown_path(str(Path(path).resolve()), ROOT)


def provisional_status(run: Run) -> dict[str, Any]:
    """What was provisional in the run: data files (from the manifest) and, per variant, the
    compiled rules' ``provisional`` flags (where the game's rules carry them) when today's
    data files are those the run used; and the game's sentence on its stand-ins."""
    game = run.the_game
    man = run.manifest
    prov = man.get("provisional")
    files: list[str] = []
    known = isinstance(prov, dict)
    if known:
        files = [str(f) for f in prov.get("files") or [] if not str(f).startswith("variants/")]
    flags: dict[str, dict[str, bool]] = {}
    try:
        current = manifest_mod.data_digest(manifest_mod.data_files(game.data_dir()))
        if current == (man.get("config") or {}).get("data_digest"):
            from simulate.study.batch import compiled_rules
            from simulate.study.replay import study_from_manifest

            _, _, variants = study_from_manifest(run.directory)
            for name, variant in variants.items():
                found = getattr(compiled_rules(variant, game), "provisional", None)
                if isinstance(found, Mapping):
                    flags[name] = {str(k): bool(v) for k, v in found.items()}
    except Exception:  # the data changed since, or a variant no longer compiles
        flags = {}
    note = (prov or {}).get("note") or game.provisional
    return {"known": known, "files": files, "flags": flags, "note": note, "game": game}


def provisional_text(status: dict[str, Any]) -> str:
    """The provisional-data warning (Markdown), or "" for a game whose data are the printed
    game's (``Game.provisional`` None)."""
    game: Game = status["game"]
    if game.provisional is None:
        return ""
    flags = status["flags"]
    files = status["files"]
    note = str(status.get("note") or game.provisional).strip()
    any_flag = any(any(f.values()) for f in flags.values())
    if not status["known"]:
        head = (
            "**PROVISIONAL DATA (status not recorded).** This run's manifest does not say which "
            f"data were provisional; assume they are as in the shipped data: {note}"
        )
    elif not files and not any_flag:
        return (
            "No data file of this run is marked provisional: the data are those the designer "
            "entered."
        )
    else:
        cited = [f"`{data_path(game, f)}`" for f in files]
        marked = f" Marked provisional: {terms.listing(cited)}." if cited else ""
        head = (
            f"**PROVISIONAL DATA: {note}**{marked} Read these numbers as a test of the tool, "
            "not a verdict on the game's balance."
        )
    where = game.variants_dir()
    formats = f" (their format: the files in `{shown_path(str(where), ROOT)}`)" if where else ""
    fix = (
        " To replace them, correct those data files, or override them for one study with a "
        f"variant file{formats}, then run the study again."
    )
    detail = ""
    if flags:
        bits = []
        for name, f in flags.items():
            prov = [k.replace("_", " ") for k, val in f.items() if val]
            bits.append(f"{name}: " + (", ".join(prov) + " provisional" if prov else "none"))
        detail = " Per variant: " + "; ".join(bits) + "."
    return head + fix + detail


def provisional_note(man: dict[str, Any], game: Game) -> str | None:
    """The game's sentence on its stand-in data, for a study folder (a ladder, a strength
    study, a tuning) whose data were provisional (its manifest or state says so, or does
    not say); None when they were not, or the game's data are the printed game's."""
    if game.provisional is None or not (man.get("provisional") or {}).get("any", True):
        return None
    return game.provisional


def provenance_rows(run: Run) -> list[tuple[str, str]]:
    man = run.manifest
    fails = failure_counts(run)
    per_variant = [
        f"{v}: {total - err} finished" + (f" ({err} failed)" if err else "")
        for v, (err, total) in fails.items()
    ]
    total = sum(t for _, t in fails.values())
    err_total = sum(e for e, _ in fails.values())
    pkg = man.get("package") or {}
    strategies = run.strategies
    if len(set(strategies.values())) == 1:
        strat = f"all {run.the_game.seat_word}s: `{next(iter(strategies.values()))}`"
    else:
        strat = ", ".join(f"{f} `{s}`" for f, s in strategies.items())
    variants = "; ".join(
        f"**{v}**" + (f" — {run.description(v)}" if run.description(v) else "")
        for v in run.variants
    )
    rows = [
        ("Run", f"`{shown_path(str(run.directory))}` (run id `{man.get('run_id', '?')}`)"),
        ("N games", f"{total} ({'; '.join(per_variant)})"),
        ("Master seed", str(run.master_seed)),
        *(
            [("Lineups", "; ".join(_lineup_text(e) for e in run.manifest.get("lineups") or []))]
            if run.lineups
            else [("Strategies", strat)]
        ),
        ("Variants", variants),
        ("Package", f"{pkg.get('name', manifest_mod.PACKAGE)} {pkg.get('version', '?')}"),
        ("Git commit", f"`{man['git_commit']}`" if man.get("git_commit") else "not recorded"),
        ("Played", f"{man.get('start_time', '?')} to {man.get('end_time', '?')}"),
        ("Status", str(man.get("status", "?"))),
        (
            "Failures",
            f"{err_total} of {total} games raised an error; they are excluded from every rate"
            + (" (see the Failures section)" if err_total else ""),
        ),
    ]
    return rows


def run_command(run: Run) -> str | None:
    sessions = run.manifest.get("sessions") or []
    for s in sessions:
        cmd = s.get("command") if isinstance(s, dict) else None
        if cmd:
            return " ".join(str(c) for c in cmd)
    cfg = run.manifest.get("config") or {}
    if "games" in cfg and "seed" in cfg:
        parts = ["vsim", "run", "--games", str(cfg["games"]), "--seed", str(cfg["seed"])]
        game = run.manifest.get("game")
        if game and game != DEFAULT:
            parts += ["--game", str(game)]
        for f, s in run.strategies.items():
            parts += ["--strategy", f"{f}={s}"]
        for v in run.variants:
            parts += ["--variant", v]
        parts += ["--out", str(run.directory)]
        return " ".join(parts)
    return None


def _lineup_text(entry: dict[str, Any]) -> str:
    s = entry.get("strategies") or {}
    return f"**{entry.get('name')}**: " + ", ".join(f"{f} `{v}`" for f, v in s.items())


def variant_changes(run: Run) -> list[tuple[str, str, str]]:
    """(variant, setting, value) of every key each variant's overlay sets (dotted paths),
    so a reader sees what was changed beside the results, not only a description."""
    rows = []
    for entry in run.manifest.get("variants") or []:
        content = {
            k: v
            for k, v in (entry.get("content") or {}).items()
            if k not in ("name", "description")
        }
        flat = _flatten(content)
        if not flat:
            rows.append((str(entry.get("name")), "(nothing: the rules as printed)", ""))
        rows += [(str(entry.get("name")), f"`{k}`", f"`{v}`") for k, v in flat]
    return rows


def _flatten(obj: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(obj, dict):
        out: list[tuple[str, Any]] = []
        for k, v in obj.items():
            out += _flatten(v, f"{prefix}.{k}" if prefix else str(k))
        return out
    return [(prefix, obj)]
