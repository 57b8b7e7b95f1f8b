"""Reading the designer-editable data files (``simulate/vijayanagara/data/``) into plain dicts.

The dicts are validated and compiled by ``simulate.vijayanagara.rules.ruleset``; variants overlay them
first (``simulate.vijayanagara.variants``). YAML is read by the safe loader only: data never runs code.
It is libyaml's (``CSafeLoader``) where PyYAML was built with it, as its wheels are: the same
dicts (tests/test_data.py) about eight times faster, which every worker process pays once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from simulate.errors import DataError  # generic since games share it; still importable here

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
FILES = ("map", "pieces", "setup", "rules", "factions")


def read_yaml(path: Path) -> Any:
    """One YAML file, or a one-line DataError naming it."""
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.load(fh, Loader=SAFE_LOADER)
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise DataError(f"{path}:{where} invalid YAML ({getattr(exc, 'problem', exc)})") from None


def load_raw(data_dir: Path = DATA_DIR) -> dict[str, Any]:
    """Every base data file as a dict keyed by its stem, plus ``events_path``."""
    raw: dict[str, Any] = {}
    for stem in FILES:
        path = data_dir / f"{stem}.yaml"
        content = read_yaml(path)
        if not isinstance(content, dict):
            raise DataError(f"{path}: expected a mapping at the top level")
        raw[stem] = content
    raw["events_path"] = data_dir / "events.yaml"
    return raw
