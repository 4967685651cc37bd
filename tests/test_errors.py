"""The error vocabulary (sim.errors): a rules violation, bad usage and a missing extra are three
kinds of FridayError; library messages name the library's parameters, the command line's
``error:`` line its flags (sim.cli.common.error_line)."""
import pickle
import sys

import pytest

from sim.errors import FridayError, MissingExtra, RuleError, UsageError


def test_the_hierarchy():
    """Every error of ours is a FridayError; RuleError and UsageError are ValueErrors (bad
    values), MissingExtra an ImportError; the engines' and the card table's own errors are
    kinds of them."""
    from sim.cardtable import CardTableError
    from sim.reference import IllegalAction
    for kind in (RuleError, UsageError, MissingExtra):
        assert issubclass(kind, FridayError)
    assert issubclass(RuleError, ValueError) and issubclass(UsageError, ValueError)
    assert issubclass(MissingExtra, ImportError)
    assert not issubclass(RuleError, UsageError) and not issubclass(UsageError, RuleError)
    assert issubclass(IllegalAction, RuleError) and issubclass(CardTableError, UsageError)
    assert UsageError("games must be ...", "games").argument == "games"
    assert UsageError("no level given").argument is None
    again = pickle.loads(pickle.dumps(UsageError("games must be ...", "games")))
    assert type(again) is UsageError and again.argument == "games"


def test_a_rules_violation_is_a_rule_error_and_bad_usage_a_usage_error():
    from sim import Game
    g = Game.new(level=1, seed=3)
    with pytest.raises(RuleError, match="not legal at this hazard decision"):
        g.step("pay")                                           # R5: no 'pay' before a fight
    with pytest.raises(UsageError, match="not an action"):
        g.step(1.5)


def _missing(monkeypatch, module):
    """Import ``module`` fails as when the library is not installed."""
    monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("module, extra, call", [
    ("optuna", "tune", lambda: __import__("sim.lab.tune", fromlist=["x"]).optuna()),
    ("sklearn", "train", lambda: __import__("sim.lab.train", fromlist=["x"]).check_trainer()),
    ("distributed", "cluster",
     lambda: __import__("sim.lab.cluster", fromlist=["x"]).Cluster("local:1").__enter__()),
    ("gymnasium", "gym", lambda: __import__("importlib").import_module("sim.play.env")),
])
def test_a_missing_library_names_its_extra(monkeypatch, module, extra, call):
    _missing(monkeypatch, module)
    monkeypatch.delitem(sys.modules, "sim.play.env", raising=False)     # imported afresh
    with pytest.raises(MissingExtra) as err:
        call()
    assert err.value.extra == extra
    assert f"pip install 'friday-lab[{extra}]'" in str(err.value)
    again = pickle.loads(pickle.dumps(err.value))             # as a Dask worker sends it back
    assert type(again) is MissingExtra and str(again) == str(err.value)


def _bad_calls(tmp_path):
    from policies import load_policy
    from sim.cardtable import build
    from sim.lab import simulate
    from sim.lab.balance import parse_values
    from sim.lab.cluster import parse_address
    from sim.lab.files import check_file, check_folder
    from sim.lab.run import Plan, backend_for
    from sim.lab.tune import parse_ranges, validation_seed
    (tmp_path / "old.png").write_text("keep")
    return {
        "games": lambda: simulate("random", 1, games=0),
        "cluster": lambda: parse_address("nowhere"),
        "out": lambda: check_file(tmp_path / "old.png", (".png",), False),
        "data": lambda: check_folder(tmp_path / "old.png", (), True, "data"),
        "summary": lambda: Plan((), (1,), 10, 1, engine="reference", summary=True),
        "engine": lambda: load_policy("search").check_engine("reference"),
        "chunk": lambda: backend_for(chunk=0),
        "params": lambda: parse_ranges(load_policy("veteran"), []),
        "validate_seed": lambda: validation_seed(5, 5),
        "values": lambda: parse_values("40"),
        "sets": lambda: build(None, ["63.pirate_hazard_value"]),
    }


@pytest.mark.parametrize("argument", ["games", "cluster", "out", "data", "summary", "engine",
                                      "chunk", "params", "validate_seed", "values", "sets"])
def test_a_library_call_names_its_parameter_not_a_flag(tmp_path, argument):
    with pytest.raises(UsageError) as err:
        _bad_calls(tmp_path)[argument]()
    assert err.value.argument == argument
    assert "--" not in str(err.value), str(err.value)


@pytest.mark.parametrize("argument, message, line", [
    ("games", "games must be a positive whole number, got 0",
     "--games must be a positive whole number, got 0"),
    ("summary", "summary runs on the fast engine only: drop engine='reference', or drop the "
                "summary", "--summary-only runs on the fast engine only: drop --engine "
                           "reference, or drop the summary"),
    ("out", "out x.png exists: choose another file or pass force=True to overwrite it",
     "--out x.png exists: choose another file or pass --force to overwrite it"),
    ("params", "params 'a=1' must be NAME=LOW:HIGH", "--param 'a=1' must be NAME=LOW:HIGH"),
    ("log_decisions", "log_decisions must end in .parquet, got 'x.csv'",
     "--log-decisions must end in .parquet, got 'x.csv'"),
    ("sets", "card 63 has no field 'x'", "--set: card 63 has no field 'x'"),
    (None, "unknown level 7: choose 1, 2, 3, 4", "unknown level 7: choose 1, 2, 3, 4"),
])
def test_the_command_line_puts_its_flags_in(argument, message, line):
    from sim.cli.common import error_line
    assert error_line(UsageError(message, argument)) == line


def test_the_command_line_prints_the_flag(tmp_path, friday_here):
    result = friday_here(["simulate", "--level", "1", "--games", "10", "--cluster", "nowhere"],
                         tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --cluster 'nowhere': use local:N (N worker processes on this machine) or a "
        "scheduler address such as tcp://host:8786"]
