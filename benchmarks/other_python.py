"""The same games under another Python (issue 65): this checkout installed, pure (no compiled
copies), into a fresh venv of ``--python``, plays a study there; the study is played here
too, and the two datasets' digests are compared (wall time left out).

    python benchmarks/other_python.py --python /root/.pyenv/versions/3.12.1/bin/python \\
        [--games 300] [--seed 11]

Python 3.12's ``sum()`` adds floats another way than 3.11's; play sums floats only through
``simulate.vijayanagara.rules.summation.ordered_sum``, so a seed plays the same game on both.
Not a test (it installs packages): it prints the two digests and exits 1 if they differ.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _study(python: str, out: Path, games: int, seed: int) -> str:
    """Play the study with ``python``'s ``simulate`` and return its dataset digest."""
    run = [python, "-m", "simulate.cli", "run", "--games", str(games), "--seed", str(seed)]
    command = [*run, "--jobs", "2", "--out", str(out), "--no-report", "-q"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    code = (
        "import sys; from simulate.study.dataset import dataset_digest as d; print(d(sys.argv[1]))"
    )
    done = subprocess.run([python, "-c", code, str(out)], check=True, capture_output=True)
    return done.stdout.decode().strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="The other interpreter.")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run(["git", "clone", "-q", str(ROOT), str(work / "src")], check=True)
        subprocess.run([args.python, "-m", "venv", str(work / "venv")], check=True)
        other = str(work / "venv" / "bin" / "python")
        env = {"VSIM_PURE_BUILD": "1", "PATH": "/usr/bin:/bin"}
        install = [other, "-m", "pip", "install", "-q", str(work / "src")]
        subprocess.run(install, check=True, env=env)
        version = subprocess.run([other, "--version"], capture_output=True, check=True)
        theirs = _study(other, work / "other", args.games, args.seed)
        ours = _study(sys.executable, work / "here", args.games, args.seed)
    print(f"{sys.version.split()[0]} (this): {ours}")
    print(f"{version.stdout.decode().split()[1]} (pure): {theirs}")
    print("the same games" if ours == theirs else "DIFFERENT games")
    return 0 if ours == theirs else 1


if __name__ == "__main__":
    raise SystemExit(main())
