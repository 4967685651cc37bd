"""How much of a position's chance of winning a value estimate could know, and how much one
fitted to today's features does (issue 42: "a value estimate wherever it pays").

Positions of the veteran's own games at one level.  A value estimate V(s) is fitted to the
outcomes of ``--games`` games (every third decision; scikit-learn, one thread): a logistic
regression on the learned policy's 33 state features, the same on those plus two card blocks
(each card in the player's deck, each hazard card still to meet), and gradient-boosted trees
on the 33 (300 of them, no early stop).  Games whose number ends in 0 or 5 are held out.  At every seventh decision of the
first ``--position-games`` of them, the position's chance q under the veteran is measured by
``--rollouts`` fair continuations (sim.lab.review.outcomes: the veteran's own action, then
the veteran; resampled hidden orders, R1.4).  Per step of the game, the outcome's variance
splits into the luck to come, E[q(1-q)] (what no estimate from the position can know), and
the knowable part Var(q); each V's error E[(V-q)^2] is its share of the knowable part not
captured; "as N continuations": its error equals that of the mean of N continuations,
E[q(1-q)] / E[(V-q)^2].  The rollouts' own noise, q(1-q)/K, is taken out (unbiased).  Intervals:
95% percentile bootstrap over the held-out games (500 resamples, seed 0).

    python benchmarks/value_estimate.py --level 4 --games 6000 --position-games 300 --rollouts 200 --seed 101
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402

STEPS = ("green", "yellow", "red", "pirates")       # obs[O_STEP] 0..3 (R2, R10)
EVERY_FITTED, EVERY_MEASURED = 3, 7                 # decisions between two positions used


def card_blocks(zones):
    """Each card in the player's deck (stack, discard, fight, sort3's hand) and each hazard
    card still to meet (hazard stack, discard, drawn): open facts (R1.4)."""
    import numpy as np
    from sim import observation as O
    deck = np.isin(zones, [O.Z_ROBINSON_STACK, O.Z_ROBINSON_DISCARD, O.Z_FIGHT_LEFT,
                           O.Z_FIGHT_RIGHT, O.Z_SORT])
    hazards = np.isin(zones, [O.Z_HAZARD_STACK, O.Z_HAZARD_DISCARD, O.Z_HAZARD_DRAWN])
    return np.hstack([deck, hazards]).astype(np.float64)


def position(obs):
    """(step, the 33 state features, the card zones) of one observation."""
    import numpy as np
    from policies.learned import N_FEATURES, N_STATE, state_features
    from sim import cards as C
    from sim import observation as O
    F = np.zeros(N_FEATURES)
    state_features(obs, F)
    return int(obs[O.O_STEP]), F[:N_STATE].copy(), obs[O.ZONE:O.ZONE + C.N_CARDS].copy()


def fitted_positions(level, seed, games):
    """Every third decision of the veteran's games 0..games-1: step, features, zones, won,
    game (sim.fast.play_fast, recorded)."""
    import numpy as np
    from policies import load_policy
    from sim.fast import play_fast
    veteran, rows = load_policy("veteran"), []
    for game in range(games):
        r = play_fast(level, seed, game, veteran, record=True)
        rows += [position(o) + (r["won"], game) for o in r["observations"][::EVERY_FITTED]]
    return [np.array(col) for col in zip(*rows)]


def measured_positions(level, seed, games, rollouts):
    """Every seventh decision of the first ``games`` held-out games, stepped with the
    veteran: step, features, zones, q-hat (its action's share of won continuations), game."""
    import numpy as np
    from policies import load_policy
    from sim.lab.review import decision_seed, outcomes
    from sim.play import Game
    veteran, rows = load_policy("veteran"), []
    for game in range(0, 5 * games, 5):
        g, mine = Game.new(level, seed, game), []
        while not g.is_over:
            action = g.policy_action(veteran)
            if g.decisions % EVERY_MEASURED == 0:
                out = outcomes(g, veteran, rollouts, decision_seed(seed, game, g.decisions))
                mine.append(position(g.observation)
                            + (out[:, g.legal_actions().index(action)].mean(),))
            g.step(action)
        rows += [m + (game,) for m in mine]
    return [np.array(col) for col in zip(*rows)]


def models():
    """(name, scikit-learn classifier, uses the card blocks)."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    return [("logistic, 33 features", LogisticRegression(max_iter=3000), False),
            ("logistic, 33 + cards", LogisticRegression(max_iter=3000), True),
            ("trees (300), 33 features", HistGradientBoostingClassifier(
                max_iter=300, early_stopping=False, random_state=0), False)]


def split(q, V, rollouts):
    """(luck to come E[q(1-q)], knowable Var(q), each estimate's error E[(V-q)^2]) from the
    measured chances ``q`` (each the mean of ``rollouts`` continuations, whose own noise,
    q(1-q)/rollouts, is taken out: unbiased) and the estimates ``V``."""
    luck = (q * (1 - q)).mean() * rollouts / (rollouts - 1)
    noise = luck / rollouts
    knowable = q.var() - noise
    return luck, knowable, [((v - q) ** 2).mean() - noise for v in V]


def interval(values) -> str:
    import numpy as np
    lo, hi = np.percentile(values, [2.5, 97.5])
    return f"[{lo:.2f}, {hi:.2f}]"


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=4, help="the level (4)")
    ap.add_argument("--games", type=int, default=6000, help="veteran games fitted on (6000)")
    ap.add_argument("--position-games", type=int, default=300,
                    help="held-out games whose positions are measured (300)")
    ap.add_argument("--rollouts", type=int, default=200, help="continuations a position (200)")
    ap.add_argument("--seed", type=int, default=101, help="master seed (101)")
    args = ap.parse_args(argv)
    if args.level not in (1, 2, 3, 4) or args.games < 10 or args.rollouts < 2 or \
            not 1 <= args.position_games <= args.games // 5:
        ap.error("--level is 1..4, --games at least 10, --rollouts at least 2, "
                 "--position-games 1..games/5 (the held-out games)")
    try:
        measure(argv, args)
    except KeyboardInterrupt:            # nothing is printed before the whole measurement
        print("interrupted: nothing measured (the table comes at the end)", file=sys.stderr)
        return 130
    return 0


def measure(argv, args):
    """Fit, measure and print the table (module docstring)."""
    import numpy as np
    from threadpoolctl import threadpool_limits
    t0 = time.process_time()
    step, X, Z, won, game = fitted_positions(args.level, args.seed, args.games)
    fit = game % 5 != 0
    with threadpool_limits(1):
        fitted = [(name, m.fit((np.hstack([X, card_blocks(Z)]) if cards else X)[fit],
                               won[fit]), cards) for name, m, cards in models()]
    mstep, mX, mZ, q, mgame = measured_positions(args.level, args.seed,
                                                       args.position_games, args.rollouts)
    V = [m.predict_proba(np.hstack([mX, card_blocks(mZ)]) if cards else mX)[:, 1]
         for _, m, cards in fitted]
    print(f"Made by `{command_line(argv, 'python benchmarks/value_estimate.py')}`: level "
          f"{args.level}, seed {args.seed}; {int(fit.sum()):,} positions of "
          f"{int(len(np.unique(game[fit]))):,} games fitted, {len(q):,} positions of "
          f"{args.position_games} held-out games measured with {args.rollouts} continuations "
          f"each; {time.process_time() - t0:.0f} CPU s.\n\n| step | share of a game's "
          f"decisions | positions measured | knowable share of the outcome's variance, "
          f"Var(q) / (Var(q) + E[q(1-q)]) | " + " | ".join(
              f"{name}: share of Var(q) captured" for name, _, _ in fitted)
          + " |\n|---|---|---|---|" + "---|" * len(fitted))
    rng = np.random.default_rng(0)
    for s, name in enumerate(STEPS):
        here = mstep == s
        if not here.any():
            continue
        games = np.unique(mgame[here])
        of_game = [np.flatnonzero(here & (mgame == g)) for g in games]
        samples = []
        for b in range(501):                    # b = 0: the positions as measured
            pick = range(len(games)) if b == 0 else rng.integers(len(games), size=len(games))
            rows = np.concatenate([of_game[i] for i in pick])
            luck, knowable, errors = split(q[rows], [v[rows] for v in V], args.rollouts)
            samples.append([knowable / (knowable + luck)] + [1 - e / knowable for e in errors]
                           + [luck / e for e in errors])
        samples = np.array(samples)
        m = len(fitted)
        cells = [f"{samples[0, 0]:.2f} {interval(samples[1:, 0])}"] + [
            f"{samples[0, 1 + j]:.2f} {interval(samples[1:, 1 + j])}, as "
            f"{samples[0, 1 + m + j]:.1f} continuations" for j in range(m)]
        print(f"| {name} | {np.mean(step == s):.0%} | {int(here.sum()):,} | "
              + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
