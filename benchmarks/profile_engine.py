"""Where the time goes: each engine and bot area's share of one lineup's games.

    python benchmarks/profile_engine.py --strategy random --games 200          # pure build
    python benchmarks/profile_engine.py --strategy heuristic --games 20 --callgrind

The pure build (``VSIM_PURE=1``, set by this script for its own run) is profiled with
cProfile: each function's own time is charged to the area its file belongs to. The compiled
build is profiled with valgrind's callgrind (``--callgrind``), which counts instructions, not
seconds, so its figures repeat whatever else the machine is doing: each function's own
instructions are charged to its compiled module's area, to the CPython runtime (the generic
object operations compiled code still makes: attribute lookups, tuples, dicts, boxed ints)
or to C libraries. Only the games are measured (imports and rules loading are not).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# area of a source file, by the first pattern its path matches
AREAS = (
    ("engine: sequence of play", r"rules/(sequence|invasion|succession)\b"),
    ("engine: commands", r"rules/commands/"),
    ("engine: decrees", r"rules/decrees/"),
    ("engine: events", r"rules/event"),
    ("engine: battles", r"rules/(combat|dice)\b"),
    (
        "engine: board, control, victory",
        r"rules/(state|placement|control|influence|tracks|victory|pieces)\b",
    ),
    ("engine: decisions, observation", r"rules/(context|decisions|observation|search)\b"),
    ("game loop and records", r"simulate/(game|result|seeds)\b"),
    ("bots: evaluation", r"strategies/.*evaluation"),
    ("bots: search", r"strategies/.*(search|lookahead|greedy|mcts|prior|searchers)"),
    ("bots: heuristic and policies", r"strategies/"),
)
RUNTIME = "CPython runtime (generic object operations)"
LIBC = "C library (memory, strings)"


def area_of(path: str) -> str:
    norm = path.replace("\\", "/")
    for name, pattern in AREAS:
        if re.search(pattern, norm):
            return name
    if "libpython" in norm or "/Python-3" in norm or norm in ("~", "<string>"):
        return RUNTIME
    if "libc" in norm or "/string/" in norm:
        return LIBC
    return "other (stdlib Python, numpy, random)"


def warmup_script(strategy: str) -> str:
    """The start of a profiled script: imports, rules, and one warm-up game (caches), which
    each profile then follows with the games it measures."""
    return (
        "from simulate import play_game\n"
        "from simulate.vijayanagara.rules.ruleset import load_rules\n"
        "load_rules()\n"
        f"play_game(0, {strategy!r})\n"
    )


def pure_profile(strategy: str, games: int) -> dict[str, float]:
    """Each area's share of own time under cProfile, on the pure build."""
    code = (
        "import cProfile, pstats, json, sys\n"
        + warmup_script(strategy)
        + f"def run_games():\n    for s in range(1, {games + 1}):\n        play_game(s, {strategy!r})\n"
        "prof = cProfile.Profile(); prof.enable(); run_games(); prof.disable()\n"
        "rows = [(fn, tt) for (fn, _l, _n), (_c, _nc, tt, _ct, _cl) in pstats.Stats(prof).stats.items()]\n"
        "json.dump(rows, sys.stdout)\n"
    )
    env = dict(os.environ, VSIM_PURE="1", PYTHONWARNINGS="ignore")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    import json

    shares: dict[str, float] = collections.Counter()
    for path, seconds in json.loads(out):
        shares[area_of(path)] += seconds
    return dict(shares)


def _callgrind(strategy: str, games: int, tmp: Path) -> tuple[str, str]:
    """callgrind_annotate's own and inclusive listings of ``games`` games alone: the script
    plays a warm-up game (imports, rules, caches), then the games inside one call of
    ``functools.reduce``, and callgrind collects inside that call only (``--toggle-collect``):
    neither the warm-up nor the interpreter's start and exit is counted."""
    script = tmp / f"games{games}.py"
    script.write_text(
        warmup_script(strategy)
        + "import functools\n"
        + f"functools.reduce(lambda _, s: play_game(s, {strategy!r}), range(1, {games + 1}), None)\n"
    )
    out = tmp / f"callgrind{games}.out"
    python = os.path.realpath(sys.executable)  # not a shim: valgrind follows no children
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=functools_reduce",
            f"--callgrind-out-file={out}",
            python,
            "-W",
            "ignore",
            str(script),
        ],
        cwd=ROOT,
        capture_output=True,
        check=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    listings = []
    for extra in ([], ["--inclusive=yes"]):
        listings.append(
            subprocess.run(
                ["callgrind_annotate", "--threshold=100", *extra, str(out)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
    return listings[0], listings[1]


LINE = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+(\S+?):(\S+)(?:\s+\[(\S+)\])?")


def _costs(listing: str) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for row in listing.splitlines():
        m = LINE.match(row)
        if m and "PROGRAM" not in m.group(2):
            # a module built without debug info (setup.py: -g0) names no source file ("???"):
            # its shared object does (.../valuation.cpython-311-...so)
            path = m.group(4) if m.group(2) == "???" and m.group(4) else m.group(2)
            key = (path, m.group(3))
            out[key] = out.get(key, 0) + int(m.group(1).replace(",", ""))
    return out


def callgrind_profile(strategy: str, games: int) -> tuple[dict[str, float], int, list]:
    """Each area's share of instructions on the compiled build (own instructions), the total
    per game, and the compiled functions with the most instructions under them (inclusive),
    of ``games`` games alone (one run: ``_callgrind``)."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        raise SystemExit("--callgrind needs valgrind (Debian package valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        own_listing, inclusive_listing = _callgrind(strategy, games, Path(tmp))
    own = _costs(own_listing)
    shares: dict[str, float] = collections.Counter()
    total = 0
    for (path, func), n in own.items():
        if path.endswith(".so"):  # a compiled module's own code (built without debug info)
            shares[area_of(path)] += n
        elif path.startswith("build/cython/") or "__pyx_" in func:
            source = path.removeprefix("build/cython/")
            # a Cython helper inlined from CPython headers: charge it to the module calling it
            owner = re.search(r"__pyx_p[wf]_\d+([a-z_0-9]+)", func)
            shares[area_of(source if source.endswith(".c") else _module_of(func, owner))] += n
        else:
            shares[area_of(path)] += n
        total += n
    inclusive = _costs(inclusive_listing)
    # a Python-level call enters a compiled function by its wrapper (__pyx_pw_), a typed call
    # from compiled code by its C body (__pyx_f_): the larger of the two is its total
    totals: dict[str, int] = {}
    for (_p, func), n in inclusive.items():
        m = re.match(r"^__pyx_(?:pw|f)_\d+(\w+?)(?:\.constprop\.\d+)?$", func)
        if m:
            name = m.group(1)
            totals[name] = max(totals.get(name, 0), n)
    top = sorted(((n, name) for name, n in totals.items()), reverse=True)
    return dict(shares), total // max(1, games), top[:25]


def _module_of(func: str, owner) -> str:
    """A source-like path for a Cython function name (its mangled module prefix)."""
    name = owner.group(1) if owner else func
    for word in ("strategies", "simulate"):
        if word in name:
            return name.replace("_", "/")
    return name


def show(title: str, shares: dict[str, float]) -> None:
    total = sum(shares.values()) or 1.0
    print(title)
    for name, v in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"  {100 * v / total:5.1f}%  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--callgrind", action="store_true", help="the compiled build, by callgrind")
    args = ap.parse_args()
    if args.callgrind:
        shares, per_game, top = callgrind_profile(args.strategy, args.games)
        show(
            f"compiled build, {args.strategy}, {args.games} games: own instructions by area", shares
        )
        print(f"  {per_game:,} instructions per game")
        whole = top[0][0] if top else 1
        print("compiled functions by instructions under them (inclusive, % of the games):")
        for n, name in top:
            print(f"  {100 * n / whole:5.1f}%  {name}")
    else:
        show(
            f"pure build, {args.strategy}, {args.games} games: own time by area (cProfile)",
            pure_profile(args.strategy, args.games),
        )


if __name__ == "__main__":
    main()
