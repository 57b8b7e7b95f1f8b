"""Where a run's numbers come from: provenance rows, provisional data, the run's command."""

from __future__ import annotations

from typing import Any

from simulate.analysis.commands import shown_path
from simulate.analysis.run import Run
from simulate.analysis.tables import failure_counts
from simulate.study import manifest as manifest_mod

MAP_FILE = "simulate/vijayanagara/data/map.yaml"
EVENTS_FILE = "simulate/vijayanagara/data/events.yaml"


def provisional_status(run: Run) -> dict[str, Any]:
    """What was provisional in the run: data files (from the manifest) and, per variant, the
    compiled Rules' ``provisional`` flags when today's data files are those the run used."""
    man = run.manifest
    prov = man.get("provisional")
    files: list[str] = []
    known = isinstance(prov, dict)
    if known:
        files = [str(f) for f in prov.get("files") or [] if not str(f).startswith("variants/")]
    flags: dict[str, dict[str, bool]] = {}
    try:
        current = manifest_mod.data_digest(manifest_mod.data_files())
        if current == (man.get("config") or {}).get("data_digest"):
            from simulate.study.batch import compiled_rules
            from simulate.study.replay import study_from_manifest

            _, _, variants = study_from_manifest(run.directory)
            for name, variant in variants.items():
                flags[name] = dict(compiled_rules(variant).provisional)
    except Exception:  # the data changed since, or a variant no longer compiles
        flags = {}
    return {"known": known, "files": files, "flags": flags, "note": (prov or {}).get("note")}


def provisional_text(status: dict[str, Any]) -> str:
    flags = status["flags"]
    files = status["files"]
    any_flag = any(any(f.values()) for f in flags.values())
    if not status["known"]:
        head = (
            "**PROVISIONAL DATA (status not recorded).** This run's manifest does not say which "
            "data were provisional; assume the map's Prosperity/adjacency and the Event deck "
            "are provisional stand-ins, as in the shipped data."
        )
    elif not files and not any_flag:
        return (
            "No data file of this run is marked provisional: the map and the Event deck are "
            "those the designer entered."
        )
    else:
        parts = []
        map_prov = "map.yaml" in files or any(
            f.get("map_prosperity") or f.get("map_adjacency") for f in flags.values()
        )
        deck_prov = "events.yaml" in files or any(f.get("event_deck") for f in flags.values())
        if map_prov:
            parts.append(f"the map's Prosperity values and adjacencies (`{MAP_FILE}`)")
        if deck_prov:
            parts.append(f"the Event deck (`{EVENTS_FILE}`)")
        others = [f for f in files if f not in ("map.yaml", "events.yaml")]
        if others:
            parts.append("also " + ", ".join(f"`simulate/vijayanagara/data/{f}`" for f in others))
        what = " and ".join(parts) if parts else "some data files"
        head = (
            f"**PROVISIONAL DATA: {what} are provisional stand-ins, not the printed game.** "
            "Read these numbers as a test of the tool, not a verdict on the game's balance."
        )
    fix = (
        f" To replace them, correct `{MAP_FILE}` (Prosperity, adjacencies) and "
        f"`{EVENTS_FILE}` (the cards), or override them for one study with a variant file "
        "(`[map] prosperity`, `add_adjacent`, `remove_adjacent`, `[deck] events_file`; the "
        "format is in `simulate/vijayanagara/data/variants/base.toml`), then run the study again."
    )
    detail = ""
    if flags:
        labels = {
            "map_prosperity": "Prosperity",
            "map_adjacency": "adjacency",
            "event_deck": "Event deck",
        }
        bits = []
        for name, f in flags.items():
            prov = [labels.get(k, k) for k, val in f.items() if val]
            bits.append(f"{name}: " + (", ".join(prov) + " provisional" if prov else "none"))
        detail = " Per variant: " + "; ".join(bits) + "."
    return head + fix + detail


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
        strat = f"all factions: `{strategies['DS']}`"
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
