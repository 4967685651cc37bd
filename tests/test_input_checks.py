"""The shared validators of levels and seeds (sim.rules): the CLI and the Python API (sim.lab)
accept and refuse the same inputs."""
import numpy as np
import pytest

from sim.lab import simulate
from sim.errors import UsageError
from sim.rules import check_seed, parse_levels


def test_levels_accepted():
    assert parse_levels("all") == [1, 2, 3, 4]
    assert parse_levels("1,4") == [1, 4]
    assert parse_levels(np.array([2, 3])) == [2, 3]
    assert parse_levels(np.int64(4)) == [4]


@pytest.mark.parametrize("bad", ["1,1", [2, 2], "x", [], 5, True, "0", 1.0])
def test_levels_refused(bad):
    with pytest.raises(UsageError):
        parse_levels(bad)


def test_seed_range():
    assert check_seed(np.int64(3)) == 3
    assert check_seed(2**63 - 1) == 2**63 - 1
    for bad in (-1, 2**63, True, 1.5, "1"):
        with pytest.raises(UsageError, match="out of range"):
            check_seed(bad)


def test_api_refuses_a_level_twice():
    """The same games counted twice would give a falsely narrow interval (issue 14)."""
    with pytest.raises(UsageError, match="twice"):
        simulate("random", level=[1, 1], games=10)


# --- the Python API checks what the command line checks (issue 41) ---------------------------
def _paired_frame():
    import pandas as pd
    return pd.DataFrame({"level": [1], "game": [0]})


def _env(**kw):
    from sim.play.env import FridayEnv
    return FridayEnv(level=1, **kw)


def _table(row, card, value):
    from sim.fast import layout as Y
    T = Y.card_table()
    T[row, card] = value
    return T


def _api_cases():
    """(entry point, call, the argument the error names, words of its one-line message)."""
    from sim import Game
    from sim.fast import layout as Y
    from sim.lab import (compare, compare_paired, long_frame, play_paired, ranking,
                         write_paired)
    from sim.lab import balance as B, tune as T
    from sim.lab.report import policy_report
    from sim.play.html import record_game
    from sim.play.render import render_text
    two = ["random", "random"]
    return {
        "Game.new seed 2**64": (lambda: Game.new(1, 2**64), "seed", "out of range"),
        "Game.new game -1": (lambda: Game.new(1, 1, -1), "game", "out of range"),
        "Game.new table shape": (lambda: Game.new(4, table=np.zeros((2, 69), np.int64)),
                                 "table", "table must be a card table of shape (12, 69)"),
        "Game.new table floats": (lambda: Game.new(4, table=Y.card_table() + 0.5), "table",
                                  "table must hold whole numbers"),
        "Game.new table kinds": (lambda: Game.new(4, table=_table(Y.T_KIND, 63, 0)), "table",
                                 "kind of card 63: ids and kinds are fixed (R1.1)"),
        "Game.new table destroy cost": (lambda: Game.new(4, table=_table(Y.T_DCOST, 0, 10)),
                                        "table", "the destroy_cost 10: outside 0..9"),
        "Game.new table pirate ability": (lambda: Game.new(4, table=_table(Y.T_PABILITY, 63, 9)),
                                          "table", "the pirate_ability 9: outside 0..5"),
        "Game.new table text": (lambda: Game.new(4, table="cards.csv"), "table", "not str"),
        "Game.new trace": (lambda: Game.new(1, trace="no"), "trace", "trace must be True or False"),
        "FridayEnv.reset seed 2**64": (lambda: _env().reset(seed=2**64), "seed", "out of range"),
        "FridayEnv.reset seed -1": (lambda: _env().reset(seed=-1), "seed", "out of range"),
        "FridayEnv.reset options": (lambda: _env().reset(options={"old_age": "continue"}),
                                    "options", "FridayEnv.reset takes no options"),
        "FridayEnv render_mode": (lambda: _env(render_mode="rgb_array"), "render_mode",
                                  "render_mode must be None or 'ansi'"),
        "FridayEnv reward": (lambda: _env(reward="money"), "reward", "reward must be 'win' or"),
        "record_game engine": (lambda: record_game("numba", 1, 1, 0, "expert"), "engine",
                               "engine 'numba' is unknown"),
        "record_game seed": (lambda: record_game("reference", 1, 2**63, 0, "expert"), "seed",
                             "out of range"),
        "record_game game": (lambda: record_game("fast", 1, 1, -3, "expert"), "game",
                             "game -3 out of range"),
        "render_text not a list": (lambda: render_text("game.jsonl"), "events",
                                   "events must be a list of TRACE.md events"),
        "render_text unknown event": (lambda: render_text([{"e": "teleport"}]), "events",
                                      "event 0 is not a TRACE.md event"),
        "play_paired cards": (lambda: play_paired(two, 1, 10, cards=5), "cards",
                              "cards must be a CardTable or a cards.csv path, not 5"),
        "compare games 0": (lambda: compare(two, 1, 0), "games", "games must be a positive"),
        "compare_paired not paired": (lambda: compare_paired(_paired_frame()), "paired",
                                      "paired must be the frame of play_paired"),
        "compare_paired list": (lambda: compare_paired([1, 2]), "paired",
                                "compare_paired got list"),
        "long_frame not paired": (lambda: long_frame(_paired_frame()), "paired",
                                  "long_frame got a frame without"),
        "write_paired not paired": (lambda: write_paired(_paired_frame(), "x.parquet"), "paired",
                                    "paired must be the frame of play_paired"),
        "ranking not a comparison": (lambda: ranking(_paired_frame()), "comparison",
                                     "comparison must be the frame of compare"),
        "policy_report levels": (lambda: policy_report(10, 1, "rep", policies=two, levels=[5]),
                                 "level", "unknown level 5"),
        "policy_report options": (lambda: policy_report(10, 1, "rep", policies=two,
                                                        options={"old_age": "never"}),
                                  None, "option old_age must be one of"),
        "policy_report games": (lambda: policy_report(0, 1, "rep", policies=two), "games",
                                "games must be a positive whole number"),
        "policy_report seed": (lambda: policy_report(10, -2, "rep", policies=two), "seed",
                               "seed -2 out of range"),
        "pirate_study cards": (lambda: B.pirate_study([1], 10, 1, "expert", cards=3), "cards",
                               "cards must be a CardTable"),
        "pirate_study games": (lambda: B.pirate_study([1], 0, 1, "expert"), "games",
                               "games must be a positive whole number"),
        "pirate_study threads": (lambda: B.pirate_study([1], 10, 1, "expert", threads=0),
                                 "threads", "threads must be 1.."),
        "parse_values not text": (lambda: B.parse_values(5), "values",
                                  "values must be a text like A:B"),
        "sweep values": (lambda: B.sweep("63.pirate_hazard_value", [35], 4, 10, 1, "expert"),
                         "values", "a sweep needs at least two values"),
        "sweep bootstrap": (lambda: B.sweep("63.pirate_hazard_value", [30, 35], 4, 10, 1,
                                            "expert", bootstrap=-5), "bootstrap",
                            "bootstrap must be a whole number"),
        "sweep target_rate": (lambda: B.sweep("63.pirate_hazard_value", [30, 35], 4, 10, 1,
                                              "expert", target_rate=1.0), "target_rate",
                              "strictly between 0 and 1"),
        "tune run_trials 0": (lambda: T.run_trials(None, None, 0, None), "trials",
                              "trials must be a whole number 1..100,000"),
        "tune run_trials text": (lambda: T.run_trials(None, None, "40", None), "trials",
                                 "not '40'"),
        "tune parse_ranges": (lambda: T.question("expert", 5, 4, 10, 1), "params",
                              "params must be NAME=LOW:HIGH texts or a dict"),
        "tune question games": (lambda: T.question("expert", ["value_weight=0.4:0.9"], 4, 0, 1),
                                "games", "games must be a positive whole number"),
    }


CASES = list(_api_cases())


@pytest.fixture
def nothing_plays(monkeypatch, tmp_path):
    """No game may be compiled or played, no engine called: the input is checked first."""
    from sim.fast import runner
    from sim.lab import run as R

    def played(*args, **kwargs):
        raise AssertionError("a game was compiled or played before the input was checked")
    for owner, name in ((R.InProcess, "prepare"), (R, "play_chunk"), (runner, "entry")):
        monkeypatch.setattr(owner, name, played)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("case", CASES)
def test_the_api_refuses_bad_input_at_once_in_its_own_words(case, nothing_plays):
    """Each public entry of the Python API (sim, sim.play, sim.lab) refuses what the command
    line refuses: a FridayError (sim.errors) with one line in the library's words, naming the
    argument at fault where sim.errors.UsageError can, before any game is compiled or played,
    and nothing written."""
    from sim.errors import FridayError
    call, argument, words = _api_cases()[case]
    with pytest.raises(FridayError) as err:
        call()
    message = str(err.value)
    assert words in message and "\n" not in message and not message.startswith("--")
    assert getattr(err.value, "argument", None) == argument
    assert list(nothing_plays.iterdir()) == []
