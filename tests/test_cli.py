"""``vsim``: what a user sees. Bad inputs are one line and exit 2, touching nothing."""

from __future__ import annotations

import pyarrow as pa
import pytest
from cli_support import invoke, listing

from simulate.study import backends, dataset, records, specs
from strategies import registry

BOOM = "tests.fault_strategies:Boom"


vsim = invoke
_listing = listing


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory):
    """A finished study: 6 games under each of two variants."""
    out = tmp_path_factory.mktemp("cli") / "run"
    result = vsim(
        "run", "--games", "6", "--seed", "4", "--jobs", "1", "--out", str(out),
        "--variant", "base", "--variant", "timurs-shadow",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out, result


def test_help_lists_the_commands():
    result = vsim("--help")
    assert result.exit_code == 0
    for command in ("run", "replay", "strategies", "variants"):
        assert command in result.output
    assert vsim().exit_code == 0  # bare `vsim` shows the help
    run_help = vsim("run", "--help").output
    for option in ("--games", "--seed", "--jobs", "--strategy", "--variant", "--out", "--trace"):
        assert option in run_help
    assert "--backend [loky|dask|ray]" in run_help and "--scheduler" in run_help


def test_strategies_one_line_each():
    result = vsim("strategies")
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    random_line = next(line for line in lines if line.startswith("random "))
    assert "strategies.policies.random:RandomStrategy" in random_line
    default_line = next(line for line in lines if line.startswith(f"{registry.DEFAULT} "))
    assert "(default)" in default_line
    assert {line.split()[0] for line in lines[:-1]} >= {"random", "heuristic", "greedy", "mcts"}


def test_variants_one_line_each():
    result = vsim("variants")
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    names = [line.split()[0] for line in lines[:-1]]
    assert "base" in names and "fort-penalty-2" in names and "timurs-shadow" in names
    assert "attacks on BK at a Fort roll 2 dice" in result.output


def test_run_prints_a_summary(study_dir):
    out, result = study_dir
    text = result.stdout
    assert "win rate" in text and "95% CI" in text and "mean VP" in text
    assert "timurs-shadow" in text and "failures" in text
    assert f"Data: {out}/" in text
    assert "provisional stand-ins" in text
    assert (out / "manifest.json").is_file()
    assert len(dataset.read_table(out, "games")) == 12


@pytest.fixture
def existing(tmp_path):
    """A directory holding a run's manifest and a shard, to prove bad inputs leave it be."""
    out = tmp_path / "existing"
    study = specs.Study.create(games=3, seed=1)
    from simulate.study import manifest

    out.mkdir()
    manifest.write(out, {"config": study.config(), "status": "complete"})
    dataset.write_shard(
        out / "games",
        "part-base-000000-000002.parquet",
        records.table_from_rows("games", []),
    )
    return out


BAD = [
    (["--games", "0"], "--games must be a positive integer"),
    (["--games", "-5"], "--games must be a positive integer"),
    (["--games", "many"], "'many' is not a valid integer"),
    (["--seed", "-1"], "--seed must be a non-negative integer"),
    (["--seed", "0x"], "'0x' is not a valid integer"),
    (["--strategy", "XX=random"], "unknown faction 'XX'"),
    (["--strategy", "nope"], "unknown strategy 'nope'"),
    (["--strategy", "BK=no.such.module:Bot"], "cannot load strategy"),
    (["--strategy", "VE=random:depth=3"], "strategy for VE"),
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--variant", "missing/variant.toml"], "cannot read"),
    (["--backend", "spark"], "'spark' is not one of"),
    (["--jobs", "0"], "--jobs must be a positive integer"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask or ray"),
    (["--chunk-size", "0"], "--chunk-size must be a positive integer"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_inputs_exit_2_with_one_line_and_touch_nothing(args, message, existing):
    before = _listing(existing)
    result = vsim(
        "run", "--games", "3", "--seed", "1", "--jobs", "1", "--out", str(existing), *args
    )
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert message in lines[0]
    assert _listing(existing) == before


def test_bad_variant_file(tmp_path, existing):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\ndescription = "x"\n[combat]\nattack_dice = 9\n')
    before = _listing(existing)
    result = vsim("run", "--games", "2", "--out", str(existing), "--variant", str(bad))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [f"Error: {bad}: combat.attack_dice: must be 1..6"]
    assert _listing(existing) == before


def test_unwritable_or_unusable_out(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    for out in (blocker, blocker / "sub"):
        result = vsim("run", "--games", "2", "--jobs", "1", "--out", str(out))
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1
        assert "not a directory" in result.stderr
    assert blocker.read_text() == "mine"


def test_a_different_run_in_out_is_refused(existing):
    before = _listing(existing)
    result = vsim("run", "--games", "2", "--seed", "1", "--jobs", "1", "--out", str(existing))
    assert result.exit_code == 2  # fewer games than there (more would extend the run)
    assert result.stderr.strip().splitlines() == [
        f"Error: {existing} holds a different run (games 3 there, 2 now); "
        "use --force to replace it or choose another --out"
    ]
    assert _listing(existing) == before


@pytest.mark.parametrize(
    ("files", "named"),
    [
        ({"notes.txt": "mine"}, "other files: notes.txt"),
        ({"search.json": "{}", "best.toml": "", "evaluations/part-t0000.parquet": ""},
         "a vsim tune folder"),
    ],
)  # fmt: skip
def test_a_folder_that_is_not_a_run_is_refused_unless_force(tmp_path, files, named):
    out = tmp_path / "out"
    for name, text in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    before = _listing(out)
    args = ["run", "--games", "2", "--jobs", "1", "--strategy", "all=random", "--no-report"]
    result = vsim(*args, "--out", str(out))
    assert result.exit_code == 2 and result.stderr.strip().splitlines() == [
        f"Error: {out} is not empty and holds no vsim run ({named}); use --force to write the "
        "run there anyway or choose another --out"
    ]
    assert _listing(out) == before
    forced = vsim(*args, "--out", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert all((out / name).is_file() for name in files)  # --force writes beside them


def test_an_empty_folder_takes_a_run(tmp_path):
    (tmp_path / "out").mkdir()
    result = vsim(
        "run", "--games", "2", "--jobs", "1", "--strategy", "all=random", "--no-report",
        "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output


def test_unreachable_scheduler_exit_2(tmp_path, monkeypatch):
    monkeypatch.setattr(backends, "SCHEDULER_TIMEOUT", 1)
    out = tmp_path / "never"
    result = vsim(
        "run", "--games", "2", "--out", str(out), "--backend", "dask",
        "--scheduler", "tcp://127.0.0.1:9",
    )  # fmt: skip
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "cannot reach scheduler tcp://127.0.0.1:9" in result.stderr
    assert not out.exists()


def test_ray_backend_without_ray(tmp_path):
    try:
        import ray  # noqa: F401

        pytest.skip("Ray is installed")
    except ImportError:
        pass
    result = vsim("run", "--games", "2", "--out", str(tmp_path / "r"), "--backend", "ray")
    assert result.exit_code == 2
    assert "pip install 'vijayanagara-sim[ray]'" in result.stderr
    assert not (tmp_path / "r").exists()


def test_replay_checks_the_digest_and_prints_the_log(study_dir):
    out, _ = study_dir
    result = vsim("replay", str(out), "--game", "2", "--variant", "timurs-shadow")
    assert result.exit_code == 0, result.output
    assert "final state digest matches the record" in result.stdout
    assert "game 2 of variant timurs-shadow" in result.stdout
    traced = vsim("replay", str(out), "--game", "2", "--variant", "base", "--trace")
    assert traced.exit_code == 0
    assert len(traced.stdout.splitlines()) > len(result.stdout.splitlines())
    # one variant must be chosen when there are several; unknown games are one-line errors
    for args, message in (
        ([], "several variants"),
        (["--variant", "nope"], "no variant 'nope'"),
        (["--game", "99", "--variant", "base"], "no game 99"),
    ):
        argv = ["replay", str(out), *(args if "--game" in args else ["--game", "1", *args])]
        r = vsim(*argv)
        assert r.exit_code == 2 and message in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    assert vsim("replay", str(out / "nothing"), "--game", "1").exit_code == 2


def test_replay_detects_a_changed_record(tmp_path):
    out = tmp_path / "run"
    assert vsim("run", "--games", "2", "--jobs", "1", "--out", str(out)).exit_code == 0
    shard = dataset.shards(out, "games")[0]
    import pyarrow.parquet as pq

    t = pq.read_table(shard)
    i = t.schema.get_field_index("state_digest")
    t = t.set_column(i, "state_digest", pa.array(["0" * 64] * t.num_rows))
    pq.write_table(t, shard)
    result = vsim("replay", str(out), "--game", "1")
    assert result.exit_code == 1
    assert "differs from the record's" in result.stderr


def test_failures_exit_3_and_replay_reproduces_them(tmp_path):
    out = tmp_path / "boom"
    result = vsim(
        "run", "--games", "6", "--seed", "2", "--jobs", "1", "--out", str(out),
        "--strategy", "all=random", "--strategy", f"DS={BOOM}",
    )  # fmt: skip
    assert result.exit_code == 3, result.output
    fails = dataset.failures(out)
    assert fails
    assert f"{len(fails)} game(s) failed" in result.stdout
    variant, k, _ = fails[0]
    assert f"repro: vsim replay {out} --game {k} --variant {variant}" in result.stdout
    again = vsim("replay", str(out), "--game", str(k))
    assert again.exit_code == 3
    assert "reproduced the recorded failure" in again.stdout


def test_without_a_terminal_progress_is_printed_as_lines(tmp_path):
    from cli_support import run_process

    proc = run_process(
        "run", "--games", "8", "--jobs", "1", "--no-report", "--out", str(tmp_path / "r")
    )
    assert proc.returncode == 0, proc.stderr
    assert "progress: 8/8 games (100%)" in proc.stderr
    again = run_process(
        "run", "--games", "8", "--jobs", "1", "--no-report", "--out", str(tmp_path / "r")
    )
    assert "progress:" not in again.stderr  # nothing left to play


def test_a_resumed_run_counts_its_speed_and_eta_from_its_own_games(capsys, monkeypatch):
    from rich.progress import Progress

    from simulate.cli import run as run_cli

    clock = iter([0.0, 0.0, 10.0])  # created, started, 10 games later
    monkeypatch.setattr(run_cli.time, "perf_counter", lambda: next(clock))
    bar = run_cli.Bar(Progress(disable=True), every=1.0)
    bar.start(total=100, already=50)  # half done by an earlier, interrupted run
    bar.advance(10)  # 10 games in 10 s: 1 game/s, 40 games left
    err = capsys.readouterr().err
    assert "resuming: 50 of 100 games already there" in err
    assert "progress: 60/100 games (60%), 1.0 games/s, ETA 0:00:40" in err


def test_the_eta_never_goes_below_zero(capsys, monkeypatch):
    from rich.progress import Progress

    from simulate.cli import run as run_cli

    clock = iter([0.0, 0.0, 10.0])
    monkeypatch.setattr(run_cli.time, "perf_counter", lambda: next(clock))
    bar = run_cli.Bar(Progress(disable=True), every=1.0)
    bar.start(total=100, already=0)
    bar.advance(130)  # more games than announced (a search's last step)
    assert "ETA 0:00:00" in capsys.readouterr().err


def test_a_later_start_of_the_same_command_is_not_a_resume(capsys):
    from rich.progress import Progress

    from simulate.cli import run as run_cli

    bar = run_cli.Bar(Progress(disable=True), every=1.0)
    bar.start(total=20, already=0)
    bar.start(total=40, already=20)  # the next look of --until-clear extends the run
    assert "resuming" not in capsys.readouterr().err


def test_replay_reads_like_the_game_card_titles_space_names_and_headers(study_dir):
    from simulate.vijayanagara.rules.ruleset import load_rules

    out, _ = study_dir
    rules = load_rules(None)
    result = vsim("replay", str(out), "--game", "2", "--variant", "base")
    lines = result.stdout.splitlines()
    assert lines[1].split()[:4] == ["card", "id", "title", "faction"]
    titles = {c.title[:28] for c in rules.cards}
    assert any(title in line for line in lines[2:] for title in titles)
    traced = vsim("replay", str(out), "--game", "2", "--variant", "base", "--trace")
    rows = [line.split(None, 3) for line in traced.stdout.splitlines()[2:-2]]
    spaces = [r[3] for r in rows if len(r) == 4 and r[2] == "space" and r[3] != "done"]
    assert spaces and all(s in rules.board.names for s in spaces)


def test_run_and_compare_print_json_for_scripts(tmp_path):
    import json

    from cli_support import run_process

    out = tmp_path / "j"
    proc = run_process(
        "run", "--games", "6", "--jobs", "1", "--json", "--out", str(out),
        "--variant", "base", "--variant", "timurs-shadow",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)  # stdout holds the JSON object only
    assert data["played"] == 12 and [v["variant"] for v in data["variants"]] == [
        "base",
        "timurs-shadow",
    ]
    ds = data["variants"][0]["factions"]["DS"]
    assert 0 <= ds["low"] <= ds["win_rate"] <= ds["high"] <= 1
    cmp = run_process("compare", str(out), "--variants", "base", "timurs-shadow", "--json")
    assert cmp.returncode == 0, cmp.stderr
    assert json.loads(cmp.stdout)["paired_games"] == 6
