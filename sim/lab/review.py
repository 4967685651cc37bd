"""A whole game reviewed decision by decision (``friday review``): every legal action's chance
of winning from there, the action taken, the best one and the chance lost.

    from sim.lab.review import play_through, review
    played = play_through(level=4, seed=3, game=0, policy="expert")
    rows = review(played, rollouts=1000)                 # one row per decision and candidate

Each decision with more than one legal action is scored by ``sim.fast.review``: every action
on the same K continuations, each a copy of the game with every hidden order redrawn (R1.4:
the review knows no more than the player did), the action played, then the rollout policy
(``learned`` by default, ``ROLLOUT_POLICY``) to the end.  An action's chance is its share of won continuations
with a 95% Wilson interval; the chance lost by the action taken is the best action's minus
its own, on the very same continuations, with Newcombe's paired interval.  The estimates are
the rollout policy's chances after that action: a stronger player would win more from there;
and the best of several noisy estimates is optimistic, so a small loss whose interval holds 0
may be noise.  The continuations' streams derive from (seed, game, decision index) alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import observation as O
from ..actions import A_FIGHT, A_PIRATE, A_USE, FAMILIES, N_CARDS, action_id, action_name, shown_action
from ..contract import params_copy
from ..contract.decision import PolicyError, failed_in_a_continuation
from ..deprecation import moved
from ..errors import RuleError, UsageError
from ..rng import engine_stream_start, review_decision_start
from ..rules import STEP_NAMES
from .stats import paired_proportion_difference, wilson_interval

# The strongest fair policy a review can afford (issue 42): a continuation of learned costs
# about 20 times the veteran's (benchmarks/label_cost.py) and wins about twice as often at
# level 4 (results/strength.md), so the chances are nearer a good player's.
ROLLOUT_POLICY = "learned"
ROLLOUTS = 1000
ROLLOUTS_RANGE = (10, 100_000)     # continuations per action (friday review --rollouts)


@dataclass
class Played:
    """A game as played: its start (a ``sim.Game`` that traces), the actions taken, for each
    decision the trace events before it, the finished game, and a note when the actions
    stopped before the game's end."""
    start: object
    actions: list = field(default_factory=list)
    events_before: list = field(default_factory=list)
    end: object = None
    note: str = ""
    cards: object = None            # the card table (sim.cardtable; None: the printed one)


def play_through(level: int, seed: int, game: int, policy=None, deal=None, actions=None,
                 options=None, cards=None) -> Played:
    """Play the game: by ``policy`` (a spec or Policy), or by the ``actions`` (a transcript,
    policies.transcript, or a list of names, shuffle lines or ids) from ``deal``, with the
    card table ``cards`` (sim.cardtable); every move is checked against the rules here,
    before any rollout: an illegal move or one after the game's end is a RuleError naming
    it; moves that end before the game does are a position (``note`` says so)."""
    from policies.transcript import of
    from ..fast.layout import card_table
    from ..play import Game
    t = None if actions is None else of(actions)
    if t is not None and not t.moves:
        raise UsageError("actions hold no move", "actions")
    edited = cards is not None and not cards.is_printed
    g = Game.new(level, seed, game, options, deal if t is None else t.with_shuffles(deal),
                 trace=True, table=card_table(cards) if edited else None)
    played = Played(start=g.clone(), cards=cards if edited else None)
    if t is None:
        from policies import load_policy
        pol = load_policy(policy) if isinstance(policy, str) else policy
        while not g.is_over:
            _step(g, played, g.policy_action(pol))
    else:
        for i, move in enumerate(t.moves):
            if g.is_over:
                raise t.after_the_end(i, g.result)
            if move.action not in g.legal_actions():
                step = STEP_NAMES[int(g.observation[O.O_STEP])]
                raise t.illegal(i, f"at a {g.phase} decision (step {step}, turn {_turn(g)})",
                                g.legal_action_names())
            _step(g, played, move.action)
        if not g.is_over:
            played.note = t.ends_early(g.phase, _turn(g), g.legal_action_names())
    played.end = g
    return played


def _turn(g) -> int:
    return int(g.observation[O.O_TURN])


def _step(g, played: Played, action: int):
    played.events_before.append(len(g.trace))
    played.actions.append(int(action))
    g.step(action)


def decision_seed(seed: int, game: int, decision: int) -> int:
    """The stream start of a decision's continuations: (seed, game, decision) alone (sim.rng
    review_decision_start)."""
    return review_decision_start(np.uint64(engine_stream_start(seed, game)), decision)


def outcomes(g, rollout_policy, rollouts: int, start: int) -> np.ndarray:
    """OUT[k, i]: 1 if legal action i of the decision ``g`` waits for won continuation k.  A
    rollout policy that fails (raises, answers an illegal action, writes into its inputs) in
    a continuation is an error, named by ``check_rollout_policy`` where its continuations from
    Python meet it too (a continuation that failed is no lost one)."""
    from ..fast import review as R
    from ..fast.ask import policy_function
    state = g.arrays._replace(prm=params_copy(rollout_policy))
    OUT = np.zeros((rollouts, len(g.legal_actions())), np.int64)
    R.entry()(state, policy_function(rollout_policy), np.uint64(start), OUT)
    if (OUT < 0).any():             # sim.fast.search.rollout: the copy ended on its failure
        check_rollout_policy(g, rollout_policy, g.decisions)
        raise failed_in_a_continuation(f"rollout policy {rollout_policy.name!r}", "it",
                                       g.observation, g.decisions + 1, (g.seed, g.game))
    return OUT


def action_label(names, action: int) -> str:
    """An action in a few words: 'draw', 'fight Cannibals', 'use genius (+2)'."""
    if action < A_FIGHT:
        return action_name(action)
    family, card = FAMILIES[(action - A_FIGHT) // N_CARDS], (action - A_FIGHT) % N_CARDS
    if action < A_PIRATE:
        return f"fight {names.hazard(card)}"
    if action < A_USE:
        return f"pirate {names.pirate(card)} first"
    return f"{family} {names.short(card)}"


def decision_rows(g, decision: int, taken: int, OUT: np.ndarray, label) -> list[dict]:
    """One row per legal action of decision ``decision`` (module docstring); ``label(a)``
    names action a in a few words."""
    obs, legal = g.observation, g.legal_actions()
    k = OUT.shape[0]
    wins = OUT.sum(axis=0)
    best = int(np.argmax(wins))                       # ties: the lower action id
    t = legal.index(taken)
    rows = []
    for i, a in enumerate(legal):
        lo, hi = wilson_interval(int(wins[i]), k)
        d = paired_proportion_difference(OUT[:, i].astype(bool), OUT[:, t].astype(bool))
        rows.append({"decision": decision, "turn": int(obs[O.O_TURN]),
                     "step": STEP_NAMES[int(obs[O.O_STEP])],
                     "phase": g.phase, "life": int(obs[O.O_LIFE]),
                     "pirate_fight": bool(obs[O.O_OPPONENT] >= 0 and obs[O.O_OPPONENT_IS_PIRATE]),
                     "action": action_name(a), "label": label(a), "taken": i == t,
                     "best": i == best,
                     "rollouts": k, "wins": int(wins[i]), "chance": wins[i] / k,
                     "low": lo, "high": hi, "vs_taken": d.difference,
                     "vs_taken_low": d.low, "vs_taken_high": d.high})
    return rows


def load_rollout_policy(policy):
    """The policy (a spec or Policy) that plays the continuations: a plain fast-engine one
    (a searching one would take hours: UsageError)."""
    from policies import load_policy
    from sim.contract.player import runner_of
    pol = load_policy(policy) if isinstance(policy, str) else policy
    if runner_of(pol) is not None or "fast" not in pol.engines:
        raise UsageError(f"the rollout policy must be a plain fast-engine policy (not "
                         f"{pol.name}: it would take hours)")
    return pol


def check_rollouts(rollouts) -> int:
    """Continuations per action: a whole number from 10 to 100,000 (as ``friday review``'s
    --rollouts); UsageError (``rollouts``) otherwise."""
    low, high = ROLLOUTS_RANGE
    if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) or \
            not low <= rollouts <= high:
        raise UsageError(f"rollouts must be a whole number from {low} to {high:,} (continuations "
                         f"per action), not {rollouts!r}", "rollouts")
    return int(rollouts)


def check_rollout_policy(g, rollout_policy, decision: int = 0, tries: int = 3):
    """The rollout policy plays ``tries`` continuations of the decision ``g`` (every hidden
    order redrawn, R1.4) from Python, where an illegal answer is a RuleError naming it, and
    an exception or a write a PolicyError naming its line: the review's compiled
    continuations only say that one failed (``outcomes``)."""
    pol = load_rollout_policy(rollout_policy)
    for k in range(tries):
        c = g.resampled(k)
        while not c.is_over:
            try:
                a = int(c.policy_action(pol))
            except PolicyError as exc:         # named as the rollout policy's, in a copy
                raise PolicyError(f"rollout policy, in a continuation from decision "
                                  f"{decision + 1}: {exc}") from None
            if a not in c.legal_actions():
                raise RuleError(f"rollout policy {pol.name!r} chose {shown_action(a)} at a {c.phase} "
                                f"decision of a continuation from decision {decision + 1}: "
                                f"not a legal action; legal: "
                                f"{', '.join(c.legal_action_names())}")
            c.step(a)


def review(played: Played, rollouts: int = ROLLOUTS, rollout_policy=ROLLOUT_POLICY,
           progress=None, stop=None) -> pd.DataFrame:
    """One row per legal action of every decision with a choice (``decision_rows``).
    ``progress(done, total)`` after each decision; ``stop()`` true ends the review early
    (Ctrl-C): the rows of the decisions done are returned.  The arguments are checked as
    ``friday review`` checks its options, the rollout policy's answers too
    (``check_rollout_policy`` before the first decision; a failure in a continuation stops
    the review with an error: ``outcomes``)."""
    if not isinstance(played, Played):
        raise UsageError("played must be a game from play_through(...)", "played")
    rollouts = check_rollouts(rollouts)
    pol = load_rollout_policy(rollout_policy)
    from ..names import CardNames
    from ..play.picture import table_rows
    g, start = played.start.clone(), played.start
    if played.actions:
        check_rollout_policy(g, pol)
    names = CardNames(table_rows(start._T))
    rows = []
    for d, a in enumerate(played.actions):
        if stop is not None and stop():
            break
        if len(g.legal_actions()) > 1:
            OUT = outcomes(g, pol, rollouts, decision_seed(start.seed, start.game, d))
            rows += decision_rows(g, d, a, OUT, lambda x: action_label(names, x))
        g.step(a)
        if progress is not None:
            progress(d + 1, len(played.actions))
    return pd.DataFrame(rows, columns=COLUMNS)


COLUMNS = ["decision", "turn", "step", "phase", "life", "pirate_fight", "action", "label", "taken",
           "best", "rollouts", "wins", "chance", "low", "high", "vs_taken", "vs_taken_low",
           "vs_taken_high"]


def decisions(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per decision: the action taken and its chance, the best and its chance, the
    chance lost with its paired interval, and whether that interval excludes 0 (``clear``)."""
    if rows.empty:
        return pd.DataFrame(columns=["decision", "turn", "step", "phase", "life",
                                     "pirate_fight", "taken", "chance", "best", "best_chance",
                                     "loss", "loss_low", "loss_high", "clear"])
    taken = rows[rows.taken].set_index("decision")
    best = rows[rows.best].set_index("decision")
    out = pd.DataFrame({
        "turn": taken.turn, "step": taken.step, "phase": taken.phase, "life": taken.life,
        "pirate_fight": taken.pirate_fight, "taken": taken.label, "chance": taken.chance,
        "best": best.label, "best_chance": best.chance, "loss": best.vs_taken,
        "loss_low": best.vs_taken_low, "loss_high": best.vs_taken_high})
    out["clear"] = out.loss_low > 0
    return out.reset_index()


def costliest(rows: pd.DataFrame, n: int = 5) -> pd.DataFrame:
    """The ``n`` decisions that lost the most chance (ties: the earlier first)."""
    d = decisions(rows)
    return d[d.loss > 0].sort_values(["loss", "decision"], ascending=[False, True]).head(n)


# --- what the review shows ----------------------------------------------------------------


def evaluation_line(group: pd.DataFrame) -> str:
    """The review of one decision in one line: every action's chance, the taken one marked
    (>), the chance lost against the best with its paired interval."""
    taken = group[group.taken].iloc[0]
    best = group[group.best].iloc[0]
    options = " | ".join(f"{'>' if r.taken else ''}{r.label} {r.chance:.1%}"
                         for r in group.sort_values("chance", ascending=False).itertuples())
    if best.action == taken.action or best.vs_taken <= 0:
        verdict = "the best"
    else:
        verdict = (f"{best.vs_taken:.1%} lost [{best.vs_taken_low:+.1%}, "
                   f"{best.vs_taken_high:+.1%}] against {best.label}")
    return f"    review: {options}  ({verdict})"


def log_with_review(played: Played, rows: pd.DataFrame, ids: bool = False) -> list[str]:
    """The game's log (sim.play.render) with each reviewed decision's line after the log
    lines that led to it."""
    from ..play.render import render_marked
    from ..trace import header
    g = played.end
    head = header("fast", g.level, g.seed, g.game, "reviewed", g.options, played.cards)
    events = [head] + g.trace
    lines, before = render_marked(events, ids)
    text = ["".join(t for t, _ in line).rstrip() for line in lines]
    out, shown = [], 0
    by_decision = dict(tuple(rows.groupby("decision"))) if len(rows) else {}
    for d, n in enumerate(played.events_before):
        if d not in by_decision:
            continue
        cut = before[min(n + 1, len(before) - 1)]
        out += text[shown:max(shown, cut)]
        shown = max(shown, cut)
        out.append(evaluation_line(by_decision[d]))
    return out + text[shown:]


def figure(rows: pd.DataFrame, title: str, top: int = 5):
    """The chance of winning after each action taken, over the game's turns (several decisions
    of a turn side by side), its 95% interval, the steps as background, pirate fights and the
    ``top`` costliest decisions marked."""
    import matplotlib
    import matplotlib.pyplot as plt
    from ..play.picture import STEP_COLOURS
    d = decisions(rows)
    fig, ax = plt.subplots(figsize=(10, 4.2))
    if len(d):
        within = d.groupby("turn").cumcount()
        x = d.turn + within / d.groupby("turn").decision.transform("size")
        for step, part in d.assign(x=x).groupby("step", sort=False):
            ax.axvspan(part.x.min() - 0.05, part.x.max() + 0.05,
                       color=STEP_COLOURS[STEP_NAMES.index(step)],
                       alpha=0.15, lw=0)
        t = rows[rows.taken].set_index("decision").loc[d.decision]
        ax.fill_between(x, t.low.values, t.high.values, color="#2e6da4", alpha=0.2, lw=0,
                        label="95% interval")
        ax.plot(x, d.chance, color="#2e6da4", lw=1.5, label="after the action taken")
        ax.plot(x, d.best_chance, color="#555", lw=0.8, ls=":", label="after the best action")
        pf = d.pirate_fight.values
        ax.scatter(x[pf], d.chance[pf], marker="s", color="#8e44ad", s=18, zorder=3,
                   label="pirate fight")
        worst = costliest(rows, top)
        ax.scatter(x.loc[worst.index], worst.chance, color="#d9534f", s=40, zorder=4,
                   label=f"costliest {len(worst)}")
        for i, r in worst.iterrows():
            ax.annotate(f"{r.taken}\n-{r.loss:.0%}", (x.loc[i], r.chance), fontsize=6,
                        xytext=(0, -22), textcoords="offset points", ha="center")
    ax.set(xlabel="turn", ylabel="chance of winning", ylim=(-0.08, 1.02), title=title)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.legend(loc="upper right", fontsize=8, ncol=2)
    fig.tight_layout()
    return fig


def replay_page(played: Played, rows: pd.DataFrame, who: str, ids: bool = False) -> str:
    """The html replay's page of the reviewed game (sim.play.html), each action's chance of
    winning beside it ('best' on the best action's)."""
    from ..play.html import replay_page as page
    from ..trace import header
    g, decisions = played.start.clone(), []
    for action, n in zip(played.actions, played.events_before):
        decisions.append((g.observation, g.legal_actions(), action, n))
        g.step(action)
    chances = {}
    for r in rows.itertuples():
        chances.setdefault(r.decision, {})[action_id(r.action)] = \
            f"{r.chance:.1%} [{r.low:.1%}, {r.high:.1%}]" + (" best" if r.best else "")
    end = played.end
    head = header("fast", end.level, end.seed, end.game, f"{who}, reviewed", end.options,
                  played.cards)
    return page(head, end.trace, decisions, ids, chances)


class ReviewedDecision:
    """Decision ``decision`` of a reviewed game, drawn as a ``Game`` draws itself
    (sim.play.picture) with every action's chance of winning under the table: ``d`` in a
    notebook cell shows it."""

    def __init__(self, played: Played, rows: pd.DataFrame, decision: int):
        self.rows = rows[rows.decision == decision]
        if self.rows.empty:
            raise UsageError(f"decision {decision} was not reviewed (one legal action, or past "
                             "the review's end)")
        self.g = played.start.clone()
        for action in played.actions[:decision]:
            self.g.step(action)
        self.decision = decision

    def _repr_html_(self) -> str:
        from html import escape
        from ..play.picture import position_html, table_rows
        lines = [f"{'&#9654; ' if r.taken else ''}{escape(r.label)}: <b>{r.chance:.1%}</b> "
                 f"[{r.low:.1%}, {r.high:.1%}]{' (best)' if r.best else ''}"
                 for r in self.rows.sort_values("chance", ascending=False).itertuples()]
        g = self.g
        title = (f"Friday, level {g.level}, seed {g.seed}, game {g.game}: decision "
                 f"{self.decision + 1}")
        return position_html(g.observation, table_rows(g._T), title,
                             f"{g.phase} decision; the chance of winning after each action:",
                             "".join(f"<br/>{line}" for line in lines))


__getattr__ = moved(__name__, {"REVIEW_SALT": "sim.rng:REVIEW_SALT"})
