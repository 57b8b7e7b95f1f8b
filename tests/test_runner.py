"""The batch runner: seeds, shards, resume, failures, backends and the dataset's schemas.

Studies here are tiny (a few games) so that the file runs in well under a minute. The
strategy ``Boom`` (tests/fault_strategies.py) is referenced as ``tests.fault_strategies:Boom`` by the runs that test
failures; workers import it with the repository root on their path.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_support import ROOT, edit, listing, process_env, run_process

from simulate.seeds import game_seed
from simulate.study import backends, batch, dataset, errors, manifest, records, runs, specs
from simulate.study import replay as replay_mod
from strategies import registry

BOOM = "tests.fault_strategies:Boom"


vsim = run_process
_env = process_env
_listing = listing


# ---------------------------------------------------------------------------------------------
# Pure parts (no engine needed)


def test_strategy_options():
    default = registry.DEFAULT
    assert specs.parse_strategies([]) == {"DS": default, "BK": default, "VE": default}
    assert specs.parse_strategies(["VE=x", "all=y"]) == {"DS": "y", "BK": "y", "VE": "x"}
    assert specs.parse_strategies(["ds=a:k=1,j=2"])["DS"] == "a:k=1,j=2"
    assert specs.parse_strategies(["pkg.mod:Cls"])["BK"] == "pkg.mod:Cls"
    assert specs.parse_strategies(["name:depth=3"]) == dict.fromkeys(
        ("DS", "BK", "VE"), "name:depth=3"
    )
    with pytest.raises(errors.RunError, match="unknown faction 'XX'"):
        specs.parse_strategies(["XX=random"])
    with pytest.raises(errors.RunError, match="no strategy name"):
        specs.parse_strategies(["DS="])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "--games must be a positive integer"),
        ({"games": -3}, "--games must be a positive integer"),
        ({"seed": -1}, "--seed must be a non-negative integer"),
        ({"strategies": ["nope"]}, "unknown strategy 'nope'"),
        ({"strategies": ["DS=random:depth=2"]}, "strategy for DS"),
        ({"strategies": {"XX": "random"}}, "unknown faction"),
        ({"variants": ["no-such-variant"]}, "unknown variant"),
        ({"variants": ["base", "base"]}, "given twice"),
    ],
)
def test_bad_study_inputs_are_one_line(kwargs, message):
    with pytest.raises(errors.RunError, match=message) as info:
        specs.Study.create(**kwargs)
    assert "\n" not in str(info.value)


def test_study_config_and_run_id_are_stable():
    a = specs.Study.create(games=5, seed=9, variants=["base", "fort-penalty-2"])
    b = specs.Study.create(games=5, seed=9, variants=["base", "fort-penalty-2"])
    c = specs.Study.create(games=6, seed=9, variants=["base", "fort-penalty-2"])
    d = specs.Study.create(games=5, seed=10, variants=["base", "fort-penalty-2"])
    assert a.config() == b.config() and a.run_id == b.run_id
    assert a.config() != c.config()
    # the game count is left out of the id: a run extended to more games keeps it (issue 19)
    assert a.run_id == c.run_id and a.run_id != d.run_id
    assert [v["name"] for v in a.config()["variants"]] == ["base", "fort-penalty-2"]
    json.dumps(a.config())  # plain JSON


def test_more_games_extend_a_finished_run_on_the_same_seeds(tmp_path):
    # issue 19: the rows are those a single larger run would have written
    small = specs.Study.create(games=4, seed=3, strategies=["all=random"])
    large = specs.Study.create(games=7, seed=3, strategies=["all=random"])
    runs.run(small, tmp_path / "extended", jobs=1)
    again = runs.run(large, tmp_path / "extended", jobs=1)
    assert (again.already, again.played) == (4, 3)
    runs.run(large, tmp_path / "direct", jobs=1)
    assert dataset.dataset_digest(tmp_path / "extended") == dataset.dataset_digest(
        tmp_path / "direct"
    )
    man = json.loads((tmp_path / "extended" / "manifest.json").read_text())
    assert man["config"]["games"] == 7 and man["extended"][0]["from_games"] == 4


def test_chunking():
    assert batch.chunk_size(12, 2) == batch.MIN_CHUNK
    assert batch.chunk_size(10**6, 2) == batch.MAX_CHUNK
    assert batch.chunk_size(1600, 4) == 100
    # guided sizes: big chunks first, small ones last, every game exactly once
    study = specs.Study.create(games=1000, seed=1, variants=["base", "timurs-shadow"])
    chunks = batch.plan_chunks(study, {}, workers=2)
    sizes = [len(c) for c in chunks]
    assert sizes[0] == batch.MAX_CHUNK and max(sizes[-4:]) <= batch.MIN_CHUNK
    assert sizes[:12] == sorted(sizes[:12], reverse=True)
    for name in ("base", "timurs-shadow"):
        covered = [k for c in chunks if c.variant == name for k in c.indices]
        assert covered == list(range(1000))
    assert [c.variant for c in chunks[:4]] == ["base", "timurs-shadow"] * 2
    study = specs.Study.create(games=10, seed=1, variants=["base", "timurs-shadow"])
    chunks = batch.plan_chunks(study, {}, size=4)
    assert [(c.variant, c.first, c.last) for c in chunks] == [
        ("base", 0, 3), ("timurs-shadow", 0, 3),
        ("base", 4, 7), ("timurs-shadow", 4, 7),
        ("base", 8, 9), ("timurs-shadow", 8, 9),
    ]  # fmt: skip
    # resume: only the missing runs of indices, never overlapping what exists
    done = {"base": {0, 1, 2, 5, 9}, "timurs-shadow": set(range(10))}
    chunks = batch.plan_chunks(study, done, size=3)
    assert [(c.variant, c.first, c.last) for c in chunks] == [
        ("base", 3, 4),
        ("base", 6, 8),
    ]
    assert chunks[0].shard_name() == "part-base-000003-000004.parquet"
    assert batch.Chunk("a b/c", 0, 1).shard_name() == "part-a_b_c-000000-000001.parquet"


def test_seeds_depend_on_master_and_index_only():
    assert game_seed(5, 3) == game_seed(5, 3)
    assert len({game_seed(5, k) for k in range(100)}) == 100
    assert 0 <= game_seed(2**40, 10**6) < 2**63  # fits the int64 seed column


def _games_table(n: int, variant: str = "base", first: int = 0) -> pa.Table:
    rows = [
        records.default_layout().error_row(
            run_id="r",
            variant=variant,
            game_index=first + k,
            seed=game_seed(0, first + k),
            strategies=dict.fromkeys(("DS", "BK", "VE"), "random"),
            error="X: y",
            seconds=0.1 * k,
        )
        for k in range(n)
    ]
    return records.table_from_rows("games", rows)


def test_shards_are_atomic_and_interrupted_leftovers_are_cleaned(tmp_path):
    dataset.write_shard(tmp_path / "games", "part-base-000000-000002.parquet", _games_table(3))
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["part-base-000000-000002.parquet"]
    # what a kill -9 can leave: a temporary file, and turns of a chunk whose games never landed
    (tmp_path / "games" / ".part-base-000003-000005.parquet.123.tmp").write_bytes(b"half")
    (tmp_path / "turns").mkdir()
    (tmp_path / "turns" / "part-base-000003-000005.parquet").write_bytes(b"orphan")
    dataset.write_shard(
        tmp_path / "turns", "part-base-000000-000002.parquet", records.empty("turns")
    )
    dataset.clean(tmp_path)
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [
        "part-base-000000-000002.parquet"
    ]
    assert sorted(p.name for p in (tmp_path / "turns").iterdir()) == [
        "part-base-000000-000002.parquet"
    ]
    assert dataset.done_games(tmp_path) == {"base": {0, 1, 2}}


def test_unreadable_games_shard_is_replayed(tmp_path):
    dataset.write_shard(tmp_path / "games", "part-base-000000-000002.parquet", _games_table(3))
    (tmp_path / "games" / "part-base-000003-000004.parquet").write_bytes(b"not parquet")
    assert dataset.done_games(tmp_path) == {"base": {0, 1, 2}}
    assert not (tmp_path / "games" / "part-base-000003-000004.parquet").exists()


def test_dataset_digest_ignores_wall_time_and_shard_layout(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    dataset.write_shard(a / "games", "part-base-000000-000005.parquet", _games_table(6))
    t = _games_table(6)
    t = t.set_column(t.schema.get_field_index("seconds"), "seconds", pa.array([9.0] * 6))
    dataset.write_shard(b / "games", "part-base-000003-000005.parquet", t.slice(3))
    dataset.write_shard(b / "games", "part-base-000000-000002.parquet", t.slice(0, 3))
    assert dataset.dataset_digest(a) == dataset.dataset_digest(b)
    changed = _games_table(6, variant="other")
    dataset.write_shard(b / "games", "part-other-000000-000005.parquet", changed)
    assert dataset.dataset_digest(a) != dataset.dataset_digest(b)


def test_schemas_live_in_one_place():
    assert set(records.SCHEMAS) == set(records.TABLES) == {"games", "turns", "actions"}
    games = records.GAMES_SCHEMA.names
    for column in [
        "run_id",
        "variant",
        "game_index",
        "seed",
        "strategy_DS",
        "strategy_BK",
        "strategy_VE",
        "winner",
        "vp_DS",
        "vp_BK",
        "vp_VE",
        "resources_DS",
        "cavalry_VE",
        "influence_BK",
        "influence_VE",
        "mongols_in_delhi_end",
        "delhi_timur_bonus",
        "tributary_provinces_end",
        "controlled_BK_end",
        "controlled_VE_end",
        "forts_end",
        "temples_end",
        "cards_played",
        "tiebreak",
        "error",
        "state_digest",
        "seconds",
    ]:
        assert column in games
    turns = records.TURNS_SCHEMA.names
    for column in [
        "game_index",
        "variant",
        "turn",
        "card_id",
        "card_kind",
        "faction",
        "action",
        "command",
        "decree",
        "vp",
        "resources",
        "cavalry",
        "influence",
        "tributary_provinces",
        "controlled_provinces",
        "units_on_map",
        "mongols_mountain_passes",
        "mongols_punjab",
        "mongols_delhi",
    ]:
        assert column in turns
    assert records.NONDETERMINISTIC["games"] == ("seconds",)
    assert "seconds" in records.__doc__


def test_manifest_helpers(tmp_path):
    files = manifest.data_files()
    assert "events.yaml" in files and "map.yaml" in files
    assert files["events.yaml"]["provisional"] and files["map.yaml"]["provisional"]
    assert not files["pieces.yaml"]["provisional"]
    assert not files["variants/base.toml"]["provisional"]  # mentions the word in a comment only
    assert all(len(f["sha256"]) == 64 for f in files.values())
    commit = manifest.git_commit()
    assert commit is None or len(commit) >= 40
    manifest.write(tmp_path, {"a": 1})
    assert manifest.read(tmp_path) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]
    (tmp_path / "manifest.json").write_text("{broken")
    with pytest.raises(ValueError, match="unreadable manifest"):
        manifest.read(tmp_path)


def test_directory_checks_touch_nothing(tmp_path):
    study = specs.Study.create(games=4, seed=1)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(errors.RunError, match="not a directory"):
        runs.check_out_dir(blocker, study, force=False)
    with pytest.raises(errors.RunError, match="is not a directory"):
        runs.check_out_dir(blocker / "sub", study, force=False)
    other = tmp_path / "other"
    other.mkdir()
    manifest.write(other, {"config": specs.Study.create(games=5, seed=1).config()})
    before = _listing(other)
    with pytest.raises(errors.RunError, match="holds a different run \\(games 5 there, 4 now\\)"):
        runs.check_out_dir(other, study, force=False)
    assert runs.check_out_dir(other, study, force=True) is None
    assert _listing(other) == before
    same = tmp_path / "same"
    same.mkdir()
    manifest.write(same, {"config": study.config()})
    assert runs.check_out_dir(same, study, force=False)["config"] == study.config()


def test_backend_errors_are_one_line():
    with pytest.raises(errors.RunError, match="unknown backend"), backends.open_backend("spark", 1):
        pass
    with (
        pytest.raises(errors.RunError, match="--scheduler needs"),
        backends.open_backend("loky", 1, "tcp://localhost:1"),
    ):
        pass


def test_unreachable_scheduler(monkeypatch):
    monkeypatch.setattr(backends, "SCHEDULER_TIMEOUT", 1)
    t0 = time.monotonic()
    with (
        pytest.raises(errors.RunError, match="cannot reach scheduler tcp://127.0.0.1:9") as info,
        backends.open_backend("dask", 1, "tcp://127.0.0.1:9"),
    ):
        pass
    assert "\n" not in str(info.value)
    assert time.monotonic() - t0 < 30


# ---------------------------------------------------------------------------------------------
# End to end, with the engine


def _run(out: Path, games: int = 8, **kw) -> runs.RunReport:
    study_kw = {k: kw.pop(k) for k in ("seed", "strategies", "variants", "trace") if k in kw}
    study = specs.Study.create(games=games, **{"seed": 11, **study_kw})
    return runs.run(study, out, **{"jobs": 1, **kw})


def _table(out: Path, table: str) -> pa.Table:
    return dataset.read_table(out, table)


def test_dataset_contents(tmp_path):
    import polars as pl

    out = tmp_path / "run"
    report = _run(out, games=6, trace=True, variants=["base", "fort-penalty-2"], chunk=4)
    assert report.exit_code == 0 and report.played == 12 and report.total == 12
    games = _table(out, "games")
    assert games.num_rows == 12
    assert games.schema.names == records.GAMES_SCHEMA.names
    rows = games.to_pylist()
    assert {r["variant"] for r in rows} == {"base", "fort-penalty-2"}
    for r in rows:
        assert r["run_id"] == report.run_id
        assert r["seed"] == game_seed(11, r["game_index"])
        assert r["error"] is None and r["state_digest"]
        assert r["strategy_DS"] == registry.DEFAULT
        assert r["winner"] in ("DS", "BK", "VE", None)
        assert r["seconds"] > 0
    # common random numbers: same seeds under each variant
    by_variant = {}
    for r in rows:
        by_variant.setdefault(r["variant"], []).append(r["seed"])
    assert by_variant["base"] == by_variant["fort-penalty-2"]
    turns = _table(out, "turns").to_pylist()
    assert turns and {t["faction"] for t in turns} == {"DS", "BK", "VE"}
    assert all(t["influence"] is None for t in turns if t["faction"] == "DS")
    actions = _table(out, "actions")
    assert actions.num_rows > 0
    # shards as named, and polars reads every table lazily
    assert sorted(p.name for p in (out / "games").iterdir()) == [
        "part-base-000000-000003.parquet",
        "part-base-000004-000005.parquet",
        "part-fort-penalty-2-000000-000003.parquet",
        "part-fort-penalty-2-000004-000005.parquet",
    ]
    for table, n in (("games", 12), ("turns", len(turns)), ("actions", actions.num_rows)):
        frame = pl.scan_parquet(str(out / table / "*.parquet")).collect()
        assert frame.height == n
    # the manifest
    man = json.loads((out / "manifest.json").read_text())
    assert man["status"] == "complete" and man["run_id"] == report.run_id
    assert man["master_seed"] == 11 and man["config"]["games"] == 6
    assert man["strategies"] == dict.fromkeys(("DS", "BK", "VE"), registry.DEFAULT)
    assert [v["name"] for v in man["variants"]] == ["base", "fort-penalty-2"]
    assert man["variants"][1]["content"]["combat"] == {"fort_penalty": 2}
    assert man["provisional"]["any"] and "events.yaml" in man["provisional"]["files"]
    assert man["data_files"]["map.yaml"]["provisional"] is True
    assert man["environment"]["python"] and man["start_time"] and man["end_time"]
    assert man["package"]["version"]
    # the summary (simulate.analysis.summary, over the run's outcome columns)
    from simulate.analysis.summary import summarize

    summary = summarize(report.outcomes, ["base", "fort-penalty-2"])
    assert [s.variant for s in summary] == ["base", "fort-penalty-2"]
    s = summary[0]
    assert s.games == 6 and s.failures == 0
    assert sum(f.wins for f in s.factions.values()) + s.ties == 6
    for f in s.factions.values():
        assert 0 <= f.low <= f.win_rate <= f.high <= 1


def test_same_study_same_tables_whatever_jobs(tmp_path):
    one = _run(tmp_path / "one", games=10, jobs=1, trace=True)
    two = _run(tmp_path / "two", games=10, jobs=2, trace=True, chunk=3)
    assert one.run_id == two.run_id
    assert dataset.dataset_digest(tmp_path / "one") == dataset.dataset_digest(tmp_path / "two")


def test_same_command_same_tables_across_processes_and_hash_seeds(tmp_path):
    args = ["run", "--games", "6", "--seed", "5", "--quiet", "--strategy", "all=random"]
    a = vsim(*args, "--jobs", "1", "--out", str(tmp_path / "a"), PYTHONHASHSEED="1")
    b = vsim(*args, "--jobs", "2", "--out", str(tmp_path / "b"), PYTHONHASHSEED="987654")
    assert a.returncode == 0, a.stderr
    assert b.returncode == 0, b.stderr
    assert dataset.dataset_digest(tmp_path / "a") == dataset.dataset_digest(tmp_path / "b")


def test_resume_after_a_lost_shard_plays_only_the_missing_games(tmp_path):
    full = tmp_path / "full"
    _run(full, games=10, chunk=4, trace=True)
    expected = dataset.dataset_digest(full)
    # lose one chunk (its games shard), and leave orphans as an interrupted run would
    (full / "games" / "part-base-000004-000007.parquet").unlink()
    (full / "turns" / ".part-base-000008-000009.parquet.99.tmp").write_bytes(b"x")
    report = _run(full, games=10, chunk=4, trace=True)
    assert report.played == 4 and report.already == 6
    assert dataset.dataset_digest(full) == expected
    games = _table(full, "games").column("game_index").to_pylist()
    assert games == list(range(10))  # no duplicates
    # and nothing is left to do now
    assert _run(full, games=10, trace=True).played == 0
    assert dataset.dataset_digest(full) == expected


def test_resume_after_kill_9(tmp_path):
    games = 48
    args = [
        "run", "--games", str(games), "--seed", "3", "--jobs", "2", "--chunk-size", "2",
        "--quiet", "--out", str(tmp_path / "killed"),
    ]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulate.cli", *args],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    shards = tmp_path / "killed" / "games"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            if shards.is_dir() and len(dataset.shards(tmp_path / "killed", "games")) >= 2:
                break
            if proc.poll() is not None:
                break
            time.sleep(0.02)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    interrupted = proc.returncode == -signal.SIGKILL
    before = sum(len(v) for v in dataset.done_games(tmp_path / "killed").values())
    assert before > 0
    rerun = vsim(*args)
    assert rerun.returncode == 0, rerun.stderr
    if interrupted and before < games:
        assert "already there" in rerun.stdout
    _run(tmp_path / "reference", games=games, seed=3)
    assert dataset.dataset_digest(tmp_path / "killed") == dataset.dataset_digest(
        tmp_path / "reference"
    )
    indices = _table(tmp_path / "killed", "games").column("game_index").to_pylist()
    assert indices == list(range(games))


def test_a_different_config_is_refused_unless_force(tmp_path):
    out = tmp_path / "run"
    _run(out, games=4)
    before = _listing(out)
    with pytest.raises(errors.RunError, match="holds a different run \\(seed 11 there, 12 now\\)"):
        _run(out, games=4, seed=12)
    assert _listing(out) == before
    report = _run(out, games=4, seed=12, force=True)
    assert report.played == 4
    seeds = _table(out, "games").column("seed").to_pylist()
    assert seeds == [game_seed(12, k) for k in range(4)]


def _lineup_file(folder: Path, version: str) -> str:
    """A lineup file (the heuristic policy, no layers) recording ``version``: after an upgrade,
    the specs naming it resolve to the new version."""
    path = folder / "mine.toml"
    edit(path, f'description = "d"\nversion = "{version}"\npolicy = "heuristic"\n')
    return str(path)


def test_a_run_begun_by_another_bot_version_is_not_resumed_unless_force(tmp_path):
    # a spec names whatever version is installed: games of two versions never share a run
    out = tmp_path / "run"
    spec = _lineup_file(tmp_path, "v1")
    _run(out, games=2, strategies={"DS": spec, "BK": "random", "VE": "random"})
    before = _listing(out)
    _lineup_file(tmp_path, "v2")
    with pytest.raises(
        errors.RunError,
        match=rf"the bots changed since its games were played "
        rf"\({re.escape(spec)} in the DS seat was v1 then and is v2 now\)",
    ):
        _run(out, games=4, strategies={"DS": spec, "BK": "random", "VE": "random"})
    assert _listing(out) == before
    report = _run(out, games=4, strategies={"DS": spec, "BK": "random", "VE": "random"}, force=True)
    assert (report.played, report.already) == (4, 0)


def _refused_then_replaced(out: Path, team: dict, before: dict, spec: str, what: str) -> None:
    """A resume after ``spec``'s ``what`` file changed is refused in one line and leaves the
    folder as it was; ``--force`` replaces it."""
    with pytest.raises(
        errors.RunError,
        match=rf"\({re.escape(spec)} in the VE seat read a {what} file of sha256 \w{{12}} then "
        r"and \w{12} now\)",
    ):
        _run(out, games=4, strategies=team)
    assert _listing(out) == before
    report = _run(out, games=4, strategies=team, force=True)
    assert (report.played, report.already) == (4, 0)


def test_a_run_whose_weights_file_changed_is_not_resumed_unless_force(tmp_path):
    # heuristic:weights=FILE is whatever FILE holds: an edit between two calls is another bot
    out = tmp_path / "run"
    weights = tmp_path / "w.toml"
    weights.write_text('[seat.VE.play.choice.terms]\n"khalji*a:pass" = 0.5\n')
    spec = f"heuristic:weights={weights}"
    team = {"DS": "random", "BK": "random", "VE": spec}
    _run(out, games=2, strategies=team)
    assert _run(out, games=3, strategies=team).played == 1  # the same file: it resumes
    before = _listing(out)
    weights.write_text('[seat.VE.play.choice.terms]\n"khalji*a:pass" = -0.5\n')
    _refused_then_replaced(out, team, before, spec, "weights")


def test_a_run_whose_lineup_file_changed_is_not_resumed_unless_force(tmp_path):
    # a lineup file is what its values say: an edit that changes play keeps no version's name
    out = tmp_path / "run"
    tier = tmp_path / "mine.toml"
    head = 'description = "a test tier"\nversion = "t1"\npolicy = "heuristic"\n'
    edit(tier, head + "[seat.VE.search]\nmcts_cards = 2\nmcts_rollouts = 1\n")
    team = {"DS": "random", "BK": "random", "VE": str(tier)}
    _run(out, games=2, strategies=team)
    comment = "# a comment changes no game\n"
    edit(tier, head + comment + "[seat.VE.search]\nmcts_cards = 2\nmcts_rollouts = 1\n")
    assert _run(out, games=3, strategies=team).played == 1  # the same play: it resumes
    before = _listing(out)
    edit(tier, head + "[seat.VE.search]\nmcts_cards = 2\nmcts_rollouts = 2\n")
    _refused_then_replaced(out, team, before, str(tier), "lineup")


def test_a_raising_strategy_becomes_error_rows_and_exit_3(tmp_path):
    out = tmp_path / "boom"
    result = vsim(
        "run", "--games", "8", "--seed", "2", "--jobs", "2", "--quiet", "--out", str(out),
        "--strategy", f"DS={BOOM}", "--chunk-size", "3",
    )  # fmt: skip
    assert result.returncode == 3, result.stderr
    rows = _table(out, "games").to_pylist()
    assert len(rows) == 8
    failed = [r for r in rows if r["error"] is not None]
    fine = [r for r in rows if r["error"] is None]
    assert failed and fine  # the run finished the other games
    for r in failed:
        assert re.match(
            r"^\w+: .*ZeroDivisionError: boom second line.*; repro: vsim replay", r["error"]
        )
        assert f"--game {r['game_index']} --variant base" in r["error"]
        assert "\n" not in r["error"]
        assert r["winner"] is None and r["vp_DS"] is None and r["state_digest"] is None
        assert r["seed"] == game_seed(2, r["game_index"]) and r["strategy_DS"] == BOOM
    for r in fine:
        assert r["state_digest"] and r["strategy_DS"] == BOOM
    turns = _table(out, "turns").column("game_index").to_pylist()
    assert not {r["game_index"] for r in failed} & set(turns)
    for r in failed:
        assert f"base#{r['game_index']}" in result.stdout
    assert f"vsim replay {out} --game" in result.stdout
    man = json.loads((out / "manifest.json").read_text())
    assert man["failures"]["count"] == len(failed)
    # resuming a finished run with failures plays nothing and still says so
    again = vsim(
        "run", "--games", "8", "--seed", "2", "--jobs", "1", "--quiet", "--out", str(out),
        "--strategy", f"DS={BOOM}",
    )  # fmt: skip
    assert again.returncode == 3
    assert "Played 0 games" in again.stdout


def test_dask_local_cluster_matches_loky(tmp_path):
    from dask.distributed import LocalCluster

    loky = _run(tmp_path / "loky", games=6, jobs=2, trace=True, variants=["base", "timurs-shadow"])
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        dask = _run(
            tmp_path / "dask",
            games=6,
            trace=True,
            variants=["base", "timurs-shadow"],
            backend="dask",
            scheduler=cluster.scheduler_address,
            chunk=2,
        )
    assert dask.backend.startswith("dask")
    assert loky.run_id == dask.run_id
    assert dataset.dataset_digest(tmp_path / "loky") == dataset.dataset_digest(tmp_path / "dask")


def test_ray_matches_loky(tmp_path):
    pytest.importorskip("ray")
    loky = _run(tmp_path / "loky", games=4, jobs=1)
    ray = _run(tmp_path / "ray", games=4, jobs=2, backend="ray")
    assert loky.run_id == ray.run_id
    assert dataset.dataset_digest(tmp_path / "loky") == dataset.dataset_digest(tmp_path / "ray")


def test_replay_matches_the_record(tmp_path):
    out = tmp_path / "run"
    _run(out, games=3, variants=["base", "timurs-shadow"])
    for variant in ("base", "timurs-shadow"):
        outcome = replay_mod.replay(out, 2, variant)
        assert outcome.matches and outcome.error is None
        assert outcome.result.actions
    with pytest.raises(errors.RunError, match="several variants"):
        replay_mod.replay(out, 2)
    with pytest.raises(errors.RunError, match="no game 7"):
        replay_mod.replay(out, 7, "base")


def test_parquet_is_readable_by_pyarrow_dataset(tmp_path):
    dataset.write_shard(tmp_path / "games", "part-base-000000-000002.parquet", _games_table(3))
    t = pq.read_table(tmp_path / "games")
    assert t.num_rows == 3


def test_wilson_interval_agrees_with_statsmodels():
    """One Wilson interval in the package (``stats.wilson_interval``, used by the run summary),
    checked against statsmodels' independent implementation."""
    from statsmodels.stats.proportion import proportion_confint

    from simulate.analysis import stats

    for k, n in ((0, 5), (3, 10), (10, 10), (57, 200)):
        lo, hi = stats.wilson_interval(k, n)
        ref = proportion_confint(k, n, alpha=0.05, method="wilson")
        assert lo == pytest.approx(ref[0], abs=1e-12) and hi == pytest.approx(ref[1], abs=1e-12)
        assert 0 <= lo <= k / n <= hi <= 1
    assert stats.wilson_interval(0, 7)[0] == 0.0 and stats.wilson_interval(7, 7)[1] == 1.0
