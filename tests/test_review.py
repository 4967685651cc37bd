"""friday review (sim.lab.review, sim.fast.review): every legal action of a decision scored on
the same fair continuations (R1.4), the costliest decisions, the figure and the Parquet rows;
transcripts checked against the rules before any rollout; Ctrl-C keeps what is done."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from policies import load_policy
from sim import Game
from sim import observation as O
from sim.actions import A_END, A_PAY, action_name
from sim.lab import review as V
from sim.lab.stats import wilson_interval

from helpers import interrupt_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def veteran():
    return load_policy("veteran")


def won_fight_with_nothing_to_gain(level=4, seed=1, games=range(20)) -> Game:
    """A fight already won, no free card left and no ability to use: end or pay only (R4.3:
    paying costs life and cannot win more)."""
    for game in games:
        g = Game.new(level=level, seed=seed, game=game)
        while not g.is_over:
            obs = g.observation
            if g.phase == "fight" and g.legal_actions() == [A_END, A_PAY] and \
                    not obs[O.O_OPPONENT_IS_PIRATE] and obs[O.O_LIFE] > 3 and \
                    obs[O.O_FIGHT_TOTAL] >= obs[O.O_EFFECTIVE_VALUE]:
                return g
            g.step(g.policy_action("expert"))
    raise AssertionError("no such decision in the games tried")


def test_ending_a_won_fight_with_nothing_to_gain_gets_the_highest_estimate(veteran):
    g = won_fight_with_nothing_to_gain()
    out = V.outcomes(g, veteran, 400, V.decision_seed(1, 0, 0))
    wins = out.sum(axis=0)
    assert wins[0] > wins[1]                       # end (A_END, the first) above pay


def test_k_continuations_agree_with_ten_times_as_many(veteran):
    g = Game.new(level=4, seed=1, game=0)
    g.step(g.legal_actions()[0]).step("draw")      # a fight decision with three actions
    few = V.outcomes(g, veteran, 300, V.decision_seed(1, 0, 5)).sum(axis=0)
    many = V.outcomes(g, veteran, 3000, V.decision_seed(2, 0, 5)).mean(axis=0)
    for k, p in zip(few, many):
        lo, hi = wilson_interval(int(k), 300)
        assert lo <= p <= hi


def test_the_review_never_reads_the_hidden_order(veteran):
    """Same observation, another true hidden order (a resampled copy): the very same outcomes
    of every continuation."""
    g = Game.new(level=2, seed=5, game=3)
    for _ in range(6):
        g.step(g.policy_action("expert"))
    start = V.decision_seed(5, 3, 6)
    np.testing.assert_array_equal(V.outcomes(g, veteran, 200, start),
                                  V.outcomes(g.resampled(11), veteran, 200, start))


def test_a_review_is_its_rows_and_stops_when_asked():
    played = V.play_through(1, 2, 0, policy="expert")
    rows = V.review(played, rollouts=40)
    assert rows.equals(V.review(played, rollouts=40))          # reproducible
    assert list(rows.columns) == V.COLUMNS
    per = rows.groupby("decision")
    assert (per.taken.sum() == 1).all() and (per.best.sum() == 1).all()
    assert (per.size() > 1).all()                # only decisions with a choice
    d = V.decisions(rows)
    assert (d.loss >= 0).all() and len(d) == rows.decision.nunique()
    assert (d.chance <= d.best_chance).all()
    taken = [played.actions[i] for i in d.decision]
    assert list(rows[rows.taken].action) == [action_name(a) for a in taken]
    calls = []
    part = V.review(played, rollouts=40, stop=lambda: len(calls) >= 3,
                    progress=lambda done, total: calls.append(done))
    assert part.decision.max() < 3 and part.equals(rows[rows.decision < 3].reset_index(drop=True))


def test_a_transcript_that_breaks_a_rule_is_refused_before_any_rollout():
    """An illegal move, or one after the game's end (policies.transcript), names where it is."""
    with pytest.raises(V.RuleError, match=r"actions, action 2: move 2 chose 'skip' at a "
                                          r"fight decision \(step green, turn 1\): not a "
                                          r"legal action; legal: draw, pay"):
        g = Game.new(level=1, seed=1, game=0)
        V.play_through(1, 1, 0, actions=[g.legal_action_names()[0], "skip", "end"])
    played = V.play_through(1, 1, 0, policy="expert")
    n = len(played.actions)
    with pytest.raises(V.RuleError, match=rf"action {n + 1}: move {n + 1} \(end\) comes after "
                                          rf"the game's end: the game ended at move {n} "):
        V.play_through(1, 1, 0, actions=played.actions + [0])


def test_moves_that_end_early_are_reviewed_as_far_as_they_go():
    played = V.play_through(1, 1, 0, policy="expert")
    part = V.play_through(1, 1, 0, actions=played.actions[:5])
    assert part.actions == played.actions[:5] and not part.end.is_over
    assert part.note.startswith("actions: the moves end before the game does, after move 5 "
                                "(action 5), at a ")
    rows = V.review(part, rollouts=10)
    assert rows.decision.max() <= 4


def test_friday_review_prints_the_log_writes_rows_and_figure(tmp_path, friday_here):
    r = friday_here(["review", "--level", "4", "--seed", "3", "--game", "0", "--rollouts", "30",
                     "--out", "r.parquet", "--figure", "r.png", "--top", "3", "--html", "r.html"],
                    tmp_path)
    assert r.returncode == 0, r.stderr
    assert "review: " in r.stdout and "costliest decisions:" in r.stdout
    assert r.stdout.count("\n  decision ") == 3
    rows = pd.read_parquet(tmp_path / "r.parquet")
    assert list(rows.columns) == V.COLUMNS and (rows.rollouts == 30).all()
    assert (tmp_path / "r.png").stat().st_size > 10_000
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>',
                                text, re.S).group(1))
    scored = [f for f in data["frames"] if "chance" in f]
    assert len(scored) == rows.decision.nunique()        # the decisions with a choice
    assert all(len(f["chance"]) == len(f["legal"]) and sum("best" in c for c in f["chance"]) == 1
               for f in scored)


def test_friday_review_of_the_table_game_sample(tmp_path, friday_here):
    r = friday_here(["review", "--level", "1", "--seed", "1", "--deal",
                     EXAMPLES / "table_deal.json", "--actions", EXAMPLES / "table_moves.txt",
                     "--rollouts", "20", "--quiet"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "actions" in r.stdout and "costliest decisions:" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["--actions", "bad.txt"], "bad.txt, line 1: move 1 chose 'skip' at a hazard"),
    (["--out", "/proc/r.parquet"], "cannot write into /proc"),
    (["--out", "r.csv"], "--out must end in .parquet"),
    (["--figure", "f.txt"], "--figure must end in"),
    (["--rollout-policy", "search"], "the rollout policy must be a plain fast-engine policy"),
    (["--rollout-policy", "nosuch"], "nosuch"),
    (["--rollouts", "5"], "--rollouts"),
    (["--actions", "empty.txt"], "empty.txt holds no move"),
    (["--actions", "deal.json"], "deal.json is a JSON object (a deal file?)"),
])
def test_bad_input_is_one_error_line_before_any_rollout(tmp_path, friday_here, args, message):
    given = {"bad.txt": "skip\n", "empty.txt": "", "deal.json": "{}"}
    for name, text in given.items():
        (tmp_path / name).write_text(text)
    r = friday_here(["review", "--level", "1", "--seed", "1", *args], tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("error:") and message in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "reviewing" not in r.stderr
    assert not [p for p in tmp_path.rglob("*") if p.name not in given]


def test_ctrl_c_keeps_and_writes_the_decisions_reviewed(tmp_path):
    """A fresh process: Ctrl-C once the review has started ends it after the current
    decision, with the log, the summary and the Parquet rows of what was done (exit 130)."""
    run = interrupt_cli("review", "--level", "4", "--seed", "3", "--rollouts", "20000",
                        "--out", "r.parquet", cues=["(?m)^reviewing"], cwd=tmp_path)
    out, err = run.stdout, run.stderr
    assert run.returncode == 130, out + err
    assert "interrupted:" in err and "decisions reviewed, shown and written" in err
    rows = pd.read_parquet(tmp_path / "r.parquet")
    done = int(re.search(r"interrupted: (\d+) decisions", err)[1])
    assert rows.decision.nunique() == done and f"reviewed {done} decisions" in out
    assert (rows.rollouts == 20000).all()


def test_a_reviewed_decision_draws_the_table_and_every_actions_chance():
    import xml.etree.ElementTree as ET
    played = V.play_through(1, 2, 0, policy="expert")
    rows = V.review(played, rollouts=40)
    d = int(rows.decision.iloc[0])
    html = V.ReviewedDecision(played, rows, d)._repr_html_()
    ET.fromstring(html)                                        # well-formed (inline SVG)
    for r in rows[rows.decision == d].itertuples():
        assert f"{r.label}: <b>{r.chance:.1%}</b>" in html.replace("&#x27;", "'")
    assert html.count("(best)") == 1 and html.count("&#9654;") == 1
    with pytest.raises(V.UsageError, match="was not reviewed"):
        V.ReviewedDecision(played, rows, len(played.actions) + 5)


def test_the_command_and_the_library_continue_with_the_same_policy():
    """One default continuation (issue 42: the strongest policy a review can afford), whether
    asked from the command line, from Python or by the coach."""
    import inspect
    from sim.cli import review as cli
    from sim.lab import coach, review as lib
    assert lib.ROLLOUT_POLICY == "learned"
    assert inspect.signature(cli.review).parameters["rollout_policy"].default == lib.ROLLOUT_POLICY
    assert inspect.signature(lib.review).parameters["rollout_policy"].default == lib.ROLLOUT_POLICY
    assert inspect.signature(coach.Coach).parameters["policy"].default == lib.ROLLOUT_POLICY


def test_a_rollout_policy_that_fails_in_a_continuation_stops_the_review(failing):
    """A policy that raises only at 7+ legal actions, which some continuations of decision 3
    of game 0 (level 1, seed 1, the veteran's moves) meet: an error naming it, where the
    continuations once counted -1 "wins" (a chance of -100%, seen on 65556d9)."""
    from sim.contract import PolicyError
    g = Game.new(level=1, seed=1, game=0)
    for _ in range(2):
        g.step(g.policy_action("veteran"))
    said = (r"^(rollout policy, in a continuation from decision 3: policy 'failing.py:no_crowds'"
            r".* raised ValueError: too many choices|rollout policy 'failing.py:no_crowds' raised,"
            r" or chose an illegal action, in a continuation .* of a \w+ decision \(decision 3 "
            r"of game 0)")
    with pytest.raises(PolicyError, match=said):
        V.outcomes(g, load_policy("failing.py:no_crowds"), 50, V.decision_seed(1, 0, 2))


def test_a_rollout_policy_that_raises_is_named_as_the_rollout_policy(failing):
    """The exception met by the continuations from Python names the rollout policy and the
    decision the continuations start from (the sweep's finding: it read as the reviewed
    player's own error)."""
    from sim.contract import PolicyError
    g = Game.new(level=1, seed=1, game=0)
    said = (r"^rollout policy, in a continuation from decision 1: policy 'failing.py:no_choices'"
            r" \(\S*failing.py:8, function no_choices\) raised ValueError: too many choices at a")
    with pytest.raises(PolicyError, match=said):
        V.outcomes(g, load_policy("failing.py:no_choices"), 20, V.decision_seed(1, 0, 0))
