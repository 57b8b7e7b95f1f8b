"""The game protocol (issue 65): a game is found by its name or ``module:OBJECT``; the tiny
test game (tests/tiny_game, Pig) plays through ``vsim run``, ``soak`` and ``replay`` at 2 and
at 5 seats, its folder remembers its game, and Vijayanagara is the default game."""

from __future__ import annotations

import json

import polars as pl
import pytest
from cli_support import invoke

from simulate.games import Game, UnknownGame, get, names
from simulate.study.specs import Study

TINY = "tests.tiny_game:GAME"


def test_vijayanagara_is_installed_and_the_default_game():
    assert "vijayanagara" in names()
    assert get() is get("vijayanagara")
    assert get().seats() == ("DS", "BK", "VE")


def test_a_game_is_found_by_module_and_object():
    game = get(TINY)
    assert isinstance(game, Game) and game.ref == TINY


def test_an_unknown_game_is_one_line_naming_the_installed_games():
    with pytest.raises(UnknownGame, match=r"unknown game 'vijayanagra' \(did you mean vijay"):
        get("vijayanagra")


def test_vsim_games_lists_each_installed_game_on_one_line():
    result = invoke("games")
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if x.startswith("vijayanagara"))
    assert "3 seats (DS, BK, VE)" in line


def test_the_number_of_seats_is_a_variant_key_of_the_tiny_game():
    study = Study.create(4, 1, ["all=random"], settings=["setup.players=5"], game=TINY)
    assert study.seats == ("P1", "P2", "P3", "P4", "P5")


def test_variants_that_seat_differently_are_refused_in_one_line(tmp_path):
    five = tmp_path / "five.toml"
    five.write_text('name = "five"\ndescription = "five seats"\n[setup]\nplayers = 5\n')
    result = invoke("run", "--game", TINY, "-n", "4", "--variant", "base", "--variant",
                    str(five), "--out", str(tmp_path / "r"), "--no-report")  # fmt: skip
    assert result.exit_code == 2
    assert "seats 5" in result.output and "\n" not in result.output.strip()


@pytest.mark.parametrize("players", [2, 5])
def test_the_tiny_game_runs_soaks_and_replays_at_each_seat_count(tmp_path, players):
    out = tmp_path / "run"
    result = invoke("run", "--game", TINY, "-n", "30", "-s", "4", "-j", "2",
                    "--set", f"setup.players={players}", "--strategy", "all=random",
                    "--strategy", "P1=cautious", "--out", str(out),
                    "--no-report", "--trace")  # fmt: skip
    assert result.exit_code == 0, result.output
    man = json.loads((out / "manifest.json").read_text())
    seats = [f"P{i + 1}" for i in range(players)]
    assert man["game"] == TINY and man["seats"] == seats
    games = pl.read_parquet(out / "games" / "*.parquet")
    assert games.height == 30 and games["error"].null_count() == 30
    assert set(games["winner"].drop_nulls()) <= set(seats)
    assert [c for c in games.columns if c.startswith("score_")] == [f"score_{s}" for s in seats]
    assert set(games["ending"]) <= {"goal", "limit"}
    turns = pl.read_parquet(out / "turns" / "*.parquet")
    assert set(turns["seat"]) == set(seats)
    actions = pl.read_parquet(out / "actions" / "*.parquet")
    assert set(actions["seat"]) <= set(seats) and set(actions["kind"]) == {"roll_or_bank"}

    replayed = invoke("replay", str(out), "--game", "3")
    assert replayed.exit_code == 0, replayed.output
    assert "final state digest matches the record" in replayed.output


@pytest.mark.parametrize("players", [2, 5])
def test_the_tiny_game_soaks_with_its_invariants(tmp_path, players):
    variant = tmp_path / "n.toml"
    variant.write_text(f'name = "n"\ndescription = "n seats"\n[setup]\nplayers = {players}\n')
    result = invoke("soak", "--game", TINY, "-n", "60", "-j", "2", "--variant", str(variant))
    assert result.exit_code == 0, result.output
    assert "60 games (random, cautious), 0 failures" in result.output


def test_a_broken_invariant_is_a_soak_failure_with_a_repro(monkeypatch):
    from tests.tiny_game import rules

    def broken(ctx):
        if ctx.state.turn > 3:
            raise AssertionError("a seat scored from nothing")

    monkeypatch.setattr(rules, "check", broken)
    result = invoke("soak", "--game", TINY, "-n", "4", "-j", "1", "--strategy", "random")
    assert result.exit_code == 3
    assert "a seat scored from nothing" in result.output and "replay_checked(" in result.output


def test_the_same_tiny_study_gives_the_same_rows_whatever_the_workers(tmp_path):
    tables = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        result = invoke("run", "--game", TINY, "-n", "25", "-s", "9", "-j", jobs,
                        "--strategy", "all=random", "--out", str(out), "--no-report")  # fmt: skip
        assert result.exit_code == 0, result.output
        tables.append(
            pl.read_parquet(out / "games" / "*.parquet").drop("seconds").sort("game_index")
        )
    assert tables[0].equals(tables[1])


def test_a_vijayanagara_study_keeps_the_run_id_it_had_before_games_were_named():
    # the run id digests the config: strategies, variants and every data file's sha256, so
    # folders written before the protocol resume as the same study (issue 65)
    assert Study.create(1, 11).run_id == "82d66526e0a23880"


def test_each_game_names_its_own_strategies():
    from strategies import registry

    assert "cautious" in registry.known(TINY) and "cautious" not in registry.known()
    assert "heuristic" in registry.known() and "heuristic" not in registry.known(TINY)
    assert type(registry.make("bold", TINY)).__name__ == "Bold"
    with pytest.raises(registry.UnknownStrategy, match="unknown strategy 'heuristic'"):
        registry.make("heuristic", TINY)


TABLED = "tests.tiny_game:TABLED"


def test_a_game_s_own_table_is_written_beside_games_and_turns(tmp_path):
    out = tmp_path / "run"
    result = invoke("run", "--game", TABLED, "-n", "30", "-s", "5", "-j", "2", "--chunk-size",
                    "8", "--strategy", "all=random", "--out", str(out), "--no-report")  # fmt: skip
    assert result.exit_code == 0, result.output
    shards = sorted(p.name for p in (out / "seat_turns").glob("*.parquet"))
    assert shards == sorted(p.name for p in (out / "games").glob("*.parquet"))
    rows = pl.read_parquet(out / "seat_turns" / "*.parquet")
    assert rows.columns[:3] == ["game_index", "variant", "lineup"]
    assert rows.height == 30 * 3 and rows.select("game_index", "seat").is_unique().all()
    turns = pl.read_parquet(out / "turns" / "*.parquet")
    banks = turns.group_by("game_index", "seat").agg((pl.col("action") == "bank").sum())
    joined = rows.join(banks, on=["game_index", "seat"])
    assert (joined["banks"] == joined["action"]).all()
    man = json.loads((out / "manifest.json").read_text())
    assert set(man["tables"]) == {"games", "turns", "actions", "seat_turns"}

    from simulate.analysis.run import load_run

    run = load_run(out)
    assert run.tables["seat_turns"].height == 90
    assert run.tables["seat_turns"]["game_index"].is_sorted()


def test_a_game_s_own_table_resumes_and_digests_as_turns(tmp_path):
    from simulate.study import dataset

    whole, grown = tmp_path / "whole", tmp_path / "grown"
    for out, games in ((whole, "20"), (grown, "12"), (grown, "20")):
        result = invoke("run", "--game", TABLED, "-n", games, "-s", "3", "-j", "1",
                        "--strategy", "all=random", "--out", str(out), "--no-report")  # fmt: skip
        assert result.exit_code == 0, result.output
    assert dataset.dataset_digest(grown) == dataset.dataset_digest(whole)
    assert dataset.read_table(grown, "seat_turns").num_rows == 60
    assert dataset.dataset_digest(whole) != dataset.dataset_digest(whole, ("games", "turns"))
    # an orphan shard (its games shard never written) is cleaned before a resume
    orphan = grown / "seat_turns" / "part-base-000100-000101.parquet"
    orphan.write_bytes((grown / "seat_turns").glob("*.parquet").__next__().read_bytes())
    dataset.clean(grown)
    assert not orphan.exists()


def test_a_game_without_tables_writes_only_the_generic_ones(tmp_path):
    out = tmp_path / "run"
    result = invoke("run", "--game", TINY, "-n", "6", "-j", "1", "--strategy", "all=random",
                    "--out", str(out), "--no-report")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["games", "turns"]
    man = json.loads((out / "manifest.json").read_text())
    assert set(man["tables"]) == {"games", "turns", "actions"}


def test_a_game_s_table_cannot_take_a_generic_table_s_name():
    from simulate.study.records import Layout
    from tests.tiny_game import TabledPig

    class Clash(TabledPig):
        tables = {"turns": TabledPig.tables["seat_turns"]}

    with pytest.raises(ValueError, match="cannot be named 'turns'"):
        Layout(Clash(), ("P1", "P2", "P3"))


def test_a_ladder_s_game_replays_under_the_lineup_that_played_it(tmp_path):
    """A ladder plays each game index under several lineups: replay asks which, and plays the
    seats' strategies its row records, not the field's."""
    out = tmp_path / "ladder"
    result = invoke("ladder", "--game", TINY, "--challenger", "random", "--seat", "P1",
                    "-n", "3", "-j", "1", "-q", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    again = invoke("replay", str(out), "--game", "1")
    assert again.exit_code == 2 and "--lineup" in again.output
    games = pl.read_parquet(out / "games" / "*.parquet")
    for lineup in games["lineup"].unique().to_list():
        replayed = invoke("replay", str(out), "--game", "1", "--lineup", lineup)
        assert replayed.exit_code == 0, replayed.output
        assert "final state digest matches the record" in replayed.output
