"""The UNFAIR solver (policies.unfair_solver, sim.fast.solver): its answers agree with brute
force on small positions, a winning line it finds is a legal, rules-exact game (it replays to a
win on the reference engine), it never calls lost what the clairvoyant wins, the same answers
whatever the threads, and it is labelled unfair and really reads the hidden orders (R1.4)."""
import numpy as np
import pytest

from policies import builtin_policies, load_policy
from policies.scripted import ScriptedPolicy
from policies.unfair_solver import solve_deals, solve_game
from sim import Game
from sim.contract import PolicyError
from sim.errors import RuleError
from sim.actions import action_name
from sim.fast import play_fast, run_batch
from sim.reference import play_game

from helpers import P_6_20, P_7_25, P_9_35, P_10_40, PIRATES, fails_in_every_way, position

BRUTE_LIMIT = 3000          # nodes: brute force gives up beyond (the position is skipped)


class _TooBig(Exception):
    pass


def _brute_force(g, count) -> bool:
    """Whether some line from ``g`` wins: every legal action at every decision, on copies of
    the game (``Game.clone``: the true orders and stream, as the solver sees them)."""
    if g.is_over:
        return bool(g.result["won"])
    for a in g.legal_actions():
        count[0] += 1
        if count[0] > BRUTE_LIMIT:
            raise _TooBig
        child = g.clone()
        child.step(a)
        if _brute_force(child, count):
            return True
    return False


def _ends_of_games(level, seed, games, backs=(2, 5, 10, 20, 40)):
    """Positions ``back`` decisions before the end of expert's games (small trees)."""
    for game in games:
        g = Game.new(level=level, seed=seed, game=game)
        history = []
        while not g.is_over:
            history.append(g.clone())
            g.step(g.policy_action("expert"))
        for back in backs:
            if back <= len(history):
                yield history[-back]


def _replays_to_a_win(level, seed, game, line, deal=None) -> bool:
    """The line played by the reference engine (the rules in plain Python) on the same deal."""
    script = ScriptedPolicy([action_name(a) for a in line])
    return play_game(level, seed, game, script, deal=deal).won


# --- exact: brute force, the reference engine ---------------------------------------------
def test_answers_agree_with_brute_force_near_the_end_of_games():
    """Positions near the end of level-4 games (won and lost ones): the solver says won
    exactly where a brute-force search over every line finds a win, lost where it finds
    none; both answers occur."""
    seen = {"won": 0, "lost": 0}
    for pos in _ends_of_games(4, 3, range(2, 6)):
        count = [0]
        try:
            truth = _brute_force(pos, count)
        except _TooBig:
            continue
        answer = solve_game(pos)
        assert answer["status"] == ("won" if truth else "lost"), (pos.game, pos.decisions)
        seen[answer["status"]] += 1
    assert seen["won"] >= 2 and seen["lost"] >= 2, seen


@pytest.mark.parametrize("level, game", [(1, 2), (2, 0), (4, 0), (4, 7)])
def test_a_winning_line_replays_to_a_win_on_the_reference_engine(level, game):
    """The solver's winning line from a deal's first decision is a legal game that the
    reference engine, given the same deal (seed, game), plays to a win (every draw and shuffle
    as the fast engine's)."""
    answer = solve_game(Game.new(level=level, seed=3, game=game))
    assert answer["status"] == "won" and answer["action"] == answer["line"][0]
    assert _replays_to_a_win(level, 3, game, answer["line"])


def test_a_pirate_out_of_reach_is_proven_lost_and_a_reachable_one_won():
    """Hand-made pirate positions (level 1).  Only the start cards and pirates 10/40 and 9/35:
    the best total any fight can reach is 5 (focused 3 x 1, genius 2; no double or copy card,
    R5.4/R5.5) < 35, so the game cannot be won (R10.1): proven lost before any step.  With
    the weapons and the repeat cards (values 4, 4, 2, 2, 2, 1) against 6/20 and 7/25 a win
    exists; its line replays to a win on the reference engine."""
    weak = position(1, robinson=list(range(18)), step=PIRATES, pirates=(P_10_40, P_9_35))
    answer = solve_game(Game.new(level=1, seed=0, deal=weak))
    assert answer["status"] == "lost" and answer["steps"] == 0 and answer["line"] == []
    strong = list(range(13, 17)) + [41, 42, 46, 51, 57, 58] + list(range(5, 13))
    good = position(1, robinson=strong, step=PIRATES, pirates=(P_6_20, P_7_25))
    answer = solve_game(Game.new(level=1, seed=0, deal=good))
    assert answer["status"] == "won"
    assert _replays_to_a_win(1, 0, 0, answer["line"], deal=good)


# --- an upper bound: never below the clairvoyant, the base policy at budget 1 -------------------
def test_it_wins_every_deal_the_clairvoyant_wins_and_never_calls_one_lost():
    clair = run_batch(4, 3, 0, 24, load_policy("unfair-clairvoyant"))["won"]
    rows, answers = solve_deals(4, 3, 0, 24)
    assert not (clair.astype(bool) & (answers["status"] == "lost").to_numpy()).any()
    assert (rows["won"] >= clair).all()
    assert np.array_equal(rows["won"].astype(bool), (answers["status"] == "won").to_numpy())


def test_budget_one_is_the_base_policy_and_the_rest_undecided():
    """With a budget of one step only the base policy's own game is tried (played out to its
    end): won where veteran wins, undecided (never lost) elsewhere."""
    veteran = run_batch(4, 3, 0, 24, load_policy("veteran"))["won"].astype(bool)
    rows, answers = solve_deals(4, 3, 0, 24, budget=1)
    assert 0 < veteran.sum() < 24
    assert np.array_equal((answers["status"] == "won").to_numpy(), veteran)
    assert set(answers["status"][~veteran]) == {"undecided"}


# --- reproducible --------------------------------------------------------------------------
def test_same_answers_whatever_the_threads_and_the_path():
    """The answers and rows for 1 and 2 threads are equal; play_fast (the trace) plays the
    batch's game."""
    one_rows, one = solve_deals(2, 3, 0, 12, budget=20_000, threads=1)
    two_rows, two = solve_deals(2, 3, 0, 12, budget=20_000, threads=2)
    assert one.equals(two)
    for c in one_rows:
        assert np.array_equal(one_rows[c], two_rows[c]), c
    policy = load_policy("unfair-solver[budget=20000]")
    batch = run_batch(2, 3, 0, 2, policy, threads=2)
    for game in range(2):
        fast = play_fast(2, 3, game, policy)
        assert fast["won"] == bool(batch["won"][game]) and fast["score"] == batch["score"][game]
        assert fast["trace"][-1]["e"] == "game_end"


# --- a user's base that fails in the solver ----------------------------------------------------
def test_a_base_that_fails_in_the_search_stops_the_game_with_an_error(failing):
    """The base raises only off its own line, in lines the solver tries: once taken as lost
    lines in silence (the deals then undecided, seen), now an error naming the solver and
    its base, from the batch, play_fast, sim.Game and solve_deals."""
    p = load_policy("unfair-solver[base=failing.py:no_crowds,budget=3000]")
    said = (r"policy 'unfair-solver(\[base=failing.py:no_crowds,budget=3000\])?': its base "
            r"policy 'failing.py:no_crowds' raised, or chose an illegal action, in a "
            r"continuation .* of a \w+ decision \(decision 1 of game 0; level 1, seed 1")
    fails_in_every_way(p, said, lambda: solve_deals(1, 1, 0, 2, budget=3000,
                                                    base="failing.py:no_crowds"))
    run_batch(1, 1, 0, 2, load_policy("failing.py:no_crowds"))    # its own games do not fail


def test_a_base_that_raises_at_the_first_decision_is_named_with_its_exception(failing):
    """The error replay asks the base where the solver asked it first, and names the
    exception."""
    p = load_policy("unfair-solver[base=failing.py:raises,budget=2000]")
    said = (r"in policy 'unfair-solver(\[base=failing.py:raises,budget=2000\])?': policy "
            r"'failing.py:raises' \(.*failing.py:\d+, function raises\) raised ValueError: asked "
            r"at a \w+ decision \(decision 1 of game 0; level 1, seed 1")
    fails_in_every_way(p, said)


@pytest.mark.parametrize("fn, said, decision", [("no_choices", "too many choices", 12),
                                                 ("no_forced", "forced", 25)])
def test_a_base_that_fails_in_its_own_game_fails_where_it_fails_alone(failing, fn, said,
                                                                       decision):
    """The solver's first play-out is the base's own game: a base failing there is played on
    and fails where it fails alone (its exception, its decision: a forced one too, which the
    solver's base is asked at), not "in a continuation" of decision 1 (seen on 1d65492)."""
    p = load_policy(f"unfair-solver[base=failing.py:{fn},budget=3000]")
    where = (rf"\(.*failing.py:\d+, function {fn}\) raised ValueError: {said} at a fight "
             rf"decision \(decision {decision} of game 0; level 1, seed 1")
    with pytest.raises(PolicyError, match=rf"^policy 'failing.py:{fn}' {where}"):
        run_batch(1, 1, 0, 2, load_policy(f"failing.py:{fn}"), threads=1)   # alone
    fails_in_every_way(p, rf"^in policy 'unfair-solver(\[base=failing.py:{fn},budget=3000\])?"
                          rf"': policy 'failing.py:{fn}' {where}",
                       lambda: solve_deals(1, 1, 0, 2, budget=3000, base=f"failing.py:{fn}"))
    answer = solve_game(Game.new(level=1, seed=1, game=0), policy=p)     # at decision 1
    assert answer["status"] == "failed" and answer["line"] == []


def test_a_base_that_answers_an_illegal_action_in_its_own_game_is_refused_there(failing):
    """As alone: the engine's illegal-action error at that decision (not "in a continuation"
    of decision 1), from the batch, play_fast, solve_deals and a sim.Game."""
    said = (r"chose action id 999 \(outside the action space\) at a fight decision \(game 0, "
            r"level 1, seed 1\): not a legal action; legal: ")
    alone, p = (load_policy(s) for s in ("failing.py:illegal",
                                         "unfair-solver[base=failing.py:illegal,budget=3000]"))
    with pytest.raises(RuleError, match=rf"^policy 'failing.py:illegal' {said}"):
        run_batch(1, 1, 0, 2, alone, threads=1)
    for play in (lambda: run_batch(1, 1, 0, 2, p, threads=1), lambda: play_fast(1, 1, 0, p),
                 lambda: solve_deals(1, 1, 0, 2, budget=3000, base="failing.py:illegal")):
        with pytest.raises(RuleError, match=rf"^policy 'unfair-solver(\[.*\])?' {said}"):
            play()
    g = Game.new(level=1, seed=1, game=0)
    with pytest.raises(RuleError, match=r"action id 999 .* is not legal at this fight decision"):
        while not g.is_over:
            g.step(g.policy_action(p))
    assert g.decisions == 12 - 1


def test_a_game_asking_the_solver_draws_the_base_from_its_own_policy_stream():
    """Where the solver finds no win, its sim.Game answer is the base's, drawn from the game's
    policy stream, so a random base plays its own game as in the batch (the stream stood
    still, seen on a792cc4: other games)."""
    p = load_policy("unfair-solver[base=random,budget=1]")
    for game in range(3):
        alone, batch = play_fast(1, 1, game, load_policy("random")), play_fast(1, 1, game, p)
        g = Game.new(level=1, seed=1, game=game)
        while not g.is_over:
            g.step(g.policy_action(p))
        assert (g.result["score"], g.result["turns"]) == (alone["score"], alone["turn"]) \
            == (batch["score"], batch["turn"])


# --- UNFAIR, labelled --------------------------------------------------------------------
def test_labelled_unfair_never_a_default_and_reads_the_hidden_orders(friday_here, tmp_path):
    """The name says unfair, the description starts UNFAIR; it is not among the fair players
    (builtin_policies() without the search players), the policies command lists it.  Unlike a
    fair player (tests/test_search.py: the same action whenever only hidden orders differ),
    its answer changes when only the true hidden order does (same observation)."""
    p = load_policy("unfair-solver")
    assert "unfair" in p.name and p.description.startswith("UNFAIR") and p.sees_all
    assert p.engines == ("fast",) and p.base_policy.name == "veteran"
    assert "unfair-solver" not in builtin_policies()
    assert "unfair-solver" in builtin_policies(search=True)
    listed = friday_here(["policies"], tmp_path)
    assert "unfair-solver" in listed.stdout
    differs = 0
    g = Game.new(level=4, seed=3, game=0)
    for _ in range(4):
        other = g.resampled(seed=99)
        assert np.array_equal(other.observation, g.observation)
        differs += solve_game(g)["line"] != solve_game(other)["line"]
        g.step(g.policy_action("expert"))
    assert differs > 0


@pytest.mark.parametrize("spec, message", [
    ("unfair-solver[budget=0]", "budget must be a whole number"),
    ("unfair-solver[budget=2.5]", "budget must be a whole number"),
    ("unfair-solver[base=nosuch]", "unknown base policy 'nosuch'"),
])
def test_bad_parameters_are_one_error_line_exit_2(friday_here, tmp_path, spec, message):
    result = friday_here(["simulate", "--policy", spec, "--games", "1", "--level", "1"],
                         tmp_path)
    errors = [line for line in (result.stdout + result.stderr).splitlines()
              if line.startswith("error:")]
    assert result.returncode == 2 and len(errors) == 1 and message in errors[0], errors
    assert list(tmp_path.iterdir()) == []


# --- benchmarks/luck.py (results/luck.md) ------------------------------------------------
@pytest.fixture(scope="module")
def luck():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "luck.py"
    spec = importlib.util.spec_from_file_location("luck", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_luck_writes_the_table_with_its_command(luck, tmp_path, capsys):
    out = tmp_path / "luck.md"
    args = ["--games", "4", "--level", "1", "--fair", "expert", "--out", str(out)]
    assert luck.main(args) == 0
    md = out.read_text()
    assert f"Made by `python benchmarks/luck.py {' '.join(args)} --force`" in md
    assert "### Level 1" in md and "| **unfair-solver** (exact, UNFAIR) | 4 of 4 |" in md
    assert "| unfair-clairvoyant |" in md and "| expert |" in md
    assert "proven lost 0, undecided 0" in md
    assert luck.main(args) == 2                         # it is there now: --force needed
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("error: --out")


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be positive"),
    (["--budget", "-1"], "--budget must be positive"),
    (["--level", "5"], "unknown level"),
    (["--fair", "unfair-clairvoyant"], "fair players only"),
    (["--fair", "nosuch"], "unknown policy 'nosuch'"),
    (["--threads", "0"], "--threads must be positive"),
])
def test_luck_bad_input_is_one_error_line_exit_2(luck, tmp_path, capsys, args, message):
    assert luck.main(args + ["--out", str(tmp_path / "luck.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and message in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_luck_ctrl_c_writes_the_finished_levels(luck, tmp_path, monkeypatch):
    """Ctrl-C during level 4 (after level 1 is done): level 1 is written, exit code 130."""
    real = luck.one_level

    def one_level(level, *args):
        if level == 4:
            raise KeyboardInterrupt
        return real(level, *args)
    monkeypatch.setattr(luck, "one_level", one_level)
    out = tmp_path / "luck.md"
    assert luck.main(["--games", "2", "--level", "1,4", "--fair", "expert",
                      "--out", str(out)]) == 130
    md = out.read_text()
    assert "### Level 1" in md and "### Level 4" not in md and "Interrupted: levels 1 only" in md
