"""The search player (policies.search, sim.fast.search): fair information (its decisions do
not change when only the true hidden order changes), reproducible whatever the threads, the
same game through the batch, play_fast (replay) and sim.Game, its decision log's schema, and
every bad parameter as one `error:` line and exit code 2."""
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from policies import load_policy
from sim import Game
from sim import observation as O
from sim.cli import app
from sim.fast import layout as Y
from sim.fast import play_fast, run_batch
from policies.search_log import decision_log
from policies.search_run import LOG_COLUMNS, decide_at
from sim.actions import action_name
from sim.errors import UsageError

from helpers import fails_in_every_way, run_cli

SMALL = "search[rollouts=6,margin=1,kinds=all]"
runner = CliRunner()


# --- the spec and its parameters (no games) --------------------------------------------------
def test_spec_names_base_and_kinds_and_records_them():
    p = load_policy("search[base=cull-green,kinds=hazard+destroy,rollouts=8,margin=2]")
    assert p.searches and p.engines == ("fast",) and p.base_policy.name == "cull-green"
    assert p.name == "search[base=cull-green,kinds=hazard+destroy,rollouts=8,margin=2]"
    from sim.fast import search as X
    assert p.sp[X.SP_ROLLOUTS] == 8 and p.sp[X.SP_MARGIN] == 2
    assert p.sp[X.SP_KINDS] == (1 << X.KIND_NAMES.index("hazard")) | \
        (1 << X.KIND_NAMES.index("destroy"))
    rec = p.record()
    assert rec["search"]["base"] == "cull-green" and rec["search"]["rollouts"] == 8
    q = load_policy("search", {"base": "always-fight", "kinds": "all"})    # --param
    assert q.name == "search[base=always-fight,kinds=all]"
    assert q.sp[X.SP_KINDS] == (1 << len(X.KIND_NAMES)) - 1
    d = load_policy("search")
    assert d.name == "search" and d.base_policy.name == "veteran"        # the default (issue 25)
    assert load_policy("search[base=expert]").base_policy.name == "expert"  # the old one


def test_the_record_names_the_network_and_the_file_a_search_plays_with(failing):
    """A search's (and the solver's) record holds its base's and keep's own records where the
    spec does not pin what they play: learned's weights (their sha256), a policy file's
    sha256; none for a built-in without weights, so the default search's record (and its
    cached results) stay as they were."""
    learned = load_policy("learned").record()
    assert "played_by" not in load_policy("search").record()
    assert "played_by" not in load_policy("search[base=expert]").record()
    assert load_policy("search[base=learned]").record()["played_by"] == {"base": learned}
    kept = load_policy("search[keep=learned]").record()["played_by"]
    assert kept == {"keep": learned} and kept["keep"]["weights"]["sha256"]
    assert load_policy("unfair-solver[base=learned]").record()["played_by"] == {"base": learned}
    assert load_policy("unfair-clairvoyant[base=learned]").record()["played_by"] == \
        {"base": learned}
    mine = load_policy("search[base=failing.py:first,rollouts=4,margin=1]").record()
    assert mine["played_by"]["base"]["sha256"] == load_policy("failing.py:first").sha256


def test_policies_command_lists_search_with_its_parameters():
    out = runner.invoke(app, ["policies"]).output
    assert "search" in out and "--param rollouts=" in out and "--param base=veteran" in out


def test_reference_engine_refuses_search_in_python():
    from sim.reference import play_batch
    with pytest.raises(UsageError, match="fast engine"):
        play_batch(1, 1, 0, 1, load_policy("search"))


BAD = [
    (["simulate", "--policy", "search[rollouts=0]"], "rollouts must be a whole number 1.."),
    (["simulate", "--policy", "search[rollouts=-4]"], "rollouts must be a whole number"),
    (["simulate", "--policy", "search[rollouts=2.5]"], "rollouts must be a whole number"),
    (["simulate", "--policy", "search[margin=0]"], "margin must be a whole number 1.."),
    (["simulate", "--policy", "search[rollouts=8,margin=9]"], "margin must be a whole number 1..8"),
    (["simulate", "--policy", "search[kinds=hazard+nope]"], "unknown decision kind 'nope'"),
    (["simulate", "--policy", "search[base=nosuch]"], "unknown base policy 'nosuch'"),
    (["simulate", "--policy", "search[base=search]"], "unknown base policy 'search'"),
    (["simulate", "--policy", "search[prune=-1]"], "prune must be >= 0"),
    (["simulate", "--policy", "search[base=expert,keep=learned]"],
     "keep=learned: its parameters must begin with base=expert's"),
    (["simulate", "--policy", "search[keep=search]"], "unknown keep policy 'search'"),
    (["simulate", "--policy", "search[keep=lerned]"], "unknown keep policy 'lerned'"),
    (["simulate", "--policy", "search[depth=3]"], "no parameter 'depth'"),
    (["simulate", "--policy", "search", "--param", "rollouts=abc"], "must be a finite number"),
    (["simulate", "--policy", "search", "--engine", "reference"], "fast engine only"),
    (["simulate", "--log-decisions", "log.parquet"], "records a search policy's decisions"),
    (["simulate", "--policy", "search", "--summary-only", "--log-decisions", "log.parquet"],
     "--log-decisions needs the games in this process"),
    (["replay", "--level", "1", "--seed", "1", "--policy", "search", "--engine", "reference"],
     "fast engine only"),
    (["compare", "expert", "search[kinds=fight+nope]", "--games", "2"], "unknown decision kind"),
    (["play", "--level", "1", "--hint", "search"], "--hint search needs the fast engine"),
]


# one case of each command in a fresh process, as a user runs it; the others run the same
# entry point, sim.cli.main, in this process (conftest's friday_here)
FRESH = {"simulate --policy search[rollouts=0]",
         "replay --level 1 --seed 1 --policy search --engine reference",
         "compare expert search[kinds=fight+nope] --games 2", "play --level 1 --hint search"}
assert FRESH <= {" ".join(a) for a, _ in BAD}


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_search_parameters_are_one_error_line_exit_2(tmp_path, args, message, friday_here):
    fresh = " ".join(args) in FRESH
    if args[0] == "simulate":
        args = args + ["--games", "1", "--level", "1"]
    if fresh:
        result = run_cli(*args, cwd=tmp_path)
    else:
        result = friday_here(args, tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and message in errors[0], output
    assert "Traceback" not in output
    assert list(tmp_path.iterdir()) == []


# --- fair information --------------------------------------------------------------------
def _positions(level, seed, game, kinds=("hazard", "fight"), per_kind=3):
    """Games stopped (by expert play) at decisions of the given kinds with 2+ legal actions."""
    g = Game.new(level=level, seed=seed, game=game)
    found = {k: 0 for k in kinds}
    while not g.is_over and min(found.values()) < per_kind:
        if len(g.legal_actions()) > 1 and g.phase in found and found[g.phase] < per_kind:
            found[g.phase] += 1
            yield g.clone()
        g.step(g.policy_action("expert"))


@pytest.mark.parametrize("spec", ["search[rollouts=16,margin=1,kinds=all]",
                                  "search[rollouts=16,margin=3,kinds=all,keep=learned]"])
def test_decisions_do_not_change_when_only_the_true_hidden_order_changes(spec):
    """At hazard and fight decisions of a level-4 game: a copy whose hidden stacks were
    redrawn (same observation, other true order) gets the same action from the same search
    stream, with the same rollout wins per candidate; the hidden orders really differ.  Every
    kind is searched (``kinds=all``), the short fight decisions included; with ``keep`` too."""
    p = load_policy(spec)
    informative = 0
    for g in _positions(4, 3, 0):
        other = g.resampled(seed=99)
        assert np.array_equal(other.observation, g.observation)
        assert not np.array_equal(other._P[Y.P_HSTACK], g._P[Y.P_HSTACK]) or \
            not np.array_equal(other._P[Y.P_RSTACK], g._P[Y.P_RSTACK])
        a, row = decide_at(p, g, log=True)
        b, row2 = decide_at(p, other, log=True)
        assert a == b
        assert list(row["wins"]) == list(row2["wins"])
        assert list(row["candidate_rollouts"]) == list(row2["candidate_rollouts"])
        informative += len(set(row["wins"])) > 1
    assert informative > 0           # some decision where the candidates scored differently


def test_keep_names_the_action_that_stands_and_the_base_still_plays_the_continuations():
    """search[keep=learned]: at every searched decision the action that stands unless
    overruled (the log's base_action) is learned's, where the plain search's is the
    veteran's; their rollout wins differ only through that choice (the continuations are
    the veteran's in both: a candidate tried by both scores the same); keep=veteran is the
    plain search."""
    plain = load_policy("search[rollouts=12,margin=2,kinds=all]")
    kept = load_policy("search[rollouts=12,margin=2,kinds=all,keep=learned]")
    default = load_policy("search[keep=veteran]")
    assert default.keep_policy is None and "keep" not in default.record()["search"]
    assert default.record()["search"] == load_policy("search").record()["search"]
    assert "keep learned" in kept.header() and kept.record()["search"]["keep"] == "learned"
    differ = 0
    for g in _positions(4, 3, 0, per_kind=6):
        a, row = decide_at(plain, g, log=True)
        b, row2 = decide_at(kept, g, log=True)
        assert row["base_action"] == action_name(g.policy_action("veteran"))
        assert row2["base_action"] == action_name(g.policy_action("learned"))
        assert row["candidates"] == row2["candidates"]
        full = [i for i, (n, m) in enumerate(zip(row["candidate_rollouts"],
                                                 row2["candidate_rollouts"])) if n == m == 12]
        assert all(row["wins"][i] == row2["wins"][i] for i in full)
        differ += row["base_action"] != row2["base_action"]
    assert differ > 0                # some position where learned keeps another action


# --- a user's base or keep that fails inside the search ---------------------------------------
def test_a_keep_that_raises_is_named_with_its_exception_in_every_way_to_play(failing):
    """keep raises at a decision of the game: the error names the search, keep's file and
    the exception, from the batch, play_fast and sim.Game (which once read the failure as
    an action)."""
    p = load_policy("search[base=failing.py:first,keep=failing.py:no_choices,rollouts=4,"
                    "margin=1]")
    said = (r"in policy 'search\[base=failing.py:first,.*policy 'failing.py:no_choices' "
            r"\(.*failing.py:8, function no_choices\) raised ValueError: too many choices at a "
            r"(fight|hazard) decision \(decision \d+ of game 0; level 1, seed 1")
    fails_in_every_way(p, said)


def test_a_base_that_fails_in_a_continuation_stops_the_game_with_an_error(failing):
    """The base raises only in continuations, copies played on ahead (keep plays the game
    itself): once counted in silence as lost continuations, now an error that names the
    search and the decision."""
    p = load_policy("search[base=failing.py:no_choices,keep=failing.py:first,rollouts=4,"
                    "margin=1]")
    said = (r"policy 'search\[base=failing.py:no_choices,.*': its base policy "
            r"'failing.py:no_choices' raised, or chose an illegal action, in a continuation "
            r".* of a \w+ decision \(decision \d+ of game 0")
    fails_in_every_way(p, said)


def test_the_unfair_clairvoyant_is_labelled_and_really_sees_the_hidden_order():
    """unfair-clairvoyant (issue 25's bound) says UNFAIR in its name and description, is not
    a default anywhere, and, unlike the search, answers differently when only the true hidden
    order changes; on the same deals it wins at least as often as a fair search."""
    p = load_policy("unfair-clairvoyant")
    assert "unfair" in p.name and p.description.startswith("UNFAIR") and p.sees_all
    assert p.base_policy.name == "veteran" and p.text_params["kinds"] == "all"
    assert "unfair-clairvoyant" in runner.invoke(app, ["policies"]).output
    assert not load_policy("search").sees_all
    from policies import builtin_policies
    assert "unfair-clairvoyant" not in builtin_policies()
    differs = 0
    for g in _positions(4, 3, 0):
        row = decide_at(p, g, log=True)[1]
        other = decide_at(p, g.resampled(seed=99), log=True)[1]
        differs += list(row["wins"]) != list(other["wins"])
    assert differs > 0
    fair, unfair = (run_batch(4, 5, 0, 40, load_policy(s))["won"].sum()
                    for s in ("search[rollouts=8,margin=2]", "unfair-clairvoyant"))
    assert unfair >= fair


# --- one game, whatever the path and the threads --------------------------------------------
def test_threads_batch_game_and_play_fast_play_the_same_games():
    p = load_policy(SMALL)
    one = run_batch(2, 5, 3, 4, p, threads=1)
    two = run_batch(2, 5, 3, 4, p, threads=2)
    for c in one:
        assert np.array_equal(one[c], two[c]), c
    r1, log1 = decision_log(p, level=2, games=4, seed=5, first_game=3, threads=1)
    r2, log2 = decision_log(p, level=2, games=4, seed=5, first_game=3, threads=2)
    assert np.array_equal(r1["score"], one["score"])
    pd.testing.assert_frame_equal(log1, log2)
    for i in range(2):
        g = Game.new(level=2, seed=5, game=3 + i)
        while not g.is_over:
            g.step(g.policy_action(p))
        fast = play_fast(2, 5, 3 + i, p)
        assert g.result["score"] == fast["score"] == one["score"][i]
        assert g.result["won"] == fast["won"] == bool(one["won"][i])


def test_replay_of_a_search_game_runs_on_the_fast_engine():
    args = ["replay", "--level", "1", "--seed", "2", "--game", "1", "--policy", SMALL]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "Score" in text.output
    jsonl = runner.invoke(app, args + ["--format", "jsonl"])
    assert jsonl.exit_code == 0
    import json
    lines = jsonl.output.strip().splitlines()
    assert json.loads(lines[0])["engine"] == "fast"
    last = json.loads(lines[-1])
    assert last["score"] == play_fast(1, 2, 1, load_policy(SMALL))["score"]


# --- the decision log ----------------------------------------------------------------------
def test_decision_log_schema_and_content(tmp_path):
    log_file, rows_file = tmp_path / "log.parquet", tmp_path / "rows.parquet"
    spec = "search[rollouts=6,margin=2,kinds=hazard+fight+destroy]"
    r = runner.invoke(app, ["simulate", "--policy", spec, "--level", "1,4", "--games", "3",
                            "--quiet", "--log-decisions", str(log_file), "--out",
                            str(rows_file)])
    assert r.exit_code == 0, r.output
    assert "searched decisions" in r.output
    table = pq.read_table(log_file)
    meta = table.schema.metadata[b"friday_lab"].decode()
    assert spec in meta
    log = table.to_pandas()
    assert list(log.columns) == list(LOG_COLUMNS)
    assert set(log["level"]) == {1, 4} and set(log["game"]) == {0, 1, 2}
    assert set(log["phase"].astype(str)) <= {"hazard", "fight", "destroy"}
    assert str(table.schema.field("candidates").type) == "list<element: string>"
    assert str(table.schema.field("wins").type) == "list<element: int32>"
    assert str(table.schema.field("observation").type) == "list<element: int16>"
    for _, row in log.iterrows():
        cands, wins, tried = list(row["candidates"]), list(row["wins"]), \
            list(row["candidate_rollouts"])
        assert len(cands) == len(wins) == len(tried) == row["n_candidates"] >= 2
        assert row["action"] in cands and row["base_action"] in cands
        assert all(0 <= w <= t <= 6 for w, t in zip(wins, tried))
        assert sum(tried) == row["rollouts"]
        assert row["switched"] == (row["action"] != row["base_action"])
        assert len(row["observation"]) == O.CT
        assert row["life"] == row["observation"][O.O_LIFE]
    switched = log[log["switched"]]
    assert len(switched) > 0                     # these games switch: the margin is checked
    for _, row in switched.iterrows():           # margin 2 over the base choice
        cands, wins = list(row["candidates"]), list(row["wins"])
        assert wins[cands.index(row["action"])] - wins[cands.index(row["base_action"])] >= 2
    games = pd.read_parquet(rows_file)
    assert len(games) == 6
    assert (log.groupby(["level", "game"]).size() > 0).all()
    assert (log.groupby(["level", "game"])["decision"].apply(lambda d: d.is_monotonic_increasing)
            ).all()


def test_fight_decisions_where_ending_is_illegal_are_the_short_kind():
    """kinds: ``fight`` searches a fight decision where ending is legal; ``short`` one where it
    is not (a pirate fight below the pirate's value, R9.3: draw, pay or an ability)."""
    _, short = decision_log("search[rollouts=4,margin=1,kinds=short]", level=1, games=6, seed=2)
    assert len(short) > 0 and set(short["phase"].astype(str)) == {"fight"}
    assert all("end" not in c for c in short["candidates"])
    _, fight = decision_log("search[rollouts=4,margin=1,kinds=fight]", level=1, games=6, seed=2)
    assert len(fight) > 0 and all("end" in c for c in fight["candidates"])


@pytest.mark.slow
def test_search_wins_more_than_expert_on_the_same_deals():
    from sim.lab import compare_paired, play_paired
    paired = play_paired(["expert", "search[rollouts=32,margin=3]"], 1, 100, seed=11)
    c = compare_paired(paired)
    assert (c["diff"] > 0.15).all()


def test_summary_mode_and_compare_run_the_search():
    r = runner.invoke(app, ["simulate", "--policy", "search[rollouts=4,margin=1]", "--level", "1",
                            "--games", "4", "--summary-only", "--quiet", "--seed", "3"])
    assert r.exit_code == 0, r.output
    rows = run_batch(1, 3, 0, 4, load_policy("search[rollouts=4,margin=1]"))
    line = [ln for ln in r.output.splitlines() if ln.strip().startswith("1 ")][0]
    assert f"{rows['won'].mean():6.2%}".strip() in line
    c = runner.invoke(app, ["compare", "expert", "search[rollouts=4,margin=1]", "--level", "1",
                            "--games", "4", "--seed", "3"])
    assert c.exit_code == 0, c.output
    assert "search[rollouts=4,margin=1]" in c.output
