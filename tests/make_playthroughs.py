"""Make the playthrough files of tests/playthroughs/ (tests/playthrough.py) again:

    python tests/make_playthroughs.py

Each scenario names the rules it shows and how its game was found: the first game of a seed,
played by a policy on the reference engine, that shows them.  The file holds that game's
set-up as an explicit deal, so it stands alone; the actions are the policy's.  Read a new file
against docs/RULES.md before committing it: it is the expected behaviour of both engines
(tests/test_playthroughs.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from playthrough import FOLDER, Playthrough, replay_reference, write  # noqa: E402
from policies import load_policy  # noqa: E402
from sim.reference import play_game  # noqa: E402
from sim.rules import Options  # noqa: E402


def abilities(g) -> set:
    return {e["ability"] for e in g.trace if e["e"] == "ability"}


# name: (what it shows, level, seed, policy, options, the test a game must pass)
SCENARIOS = {
    "won_level1": ("R8-R10: the three steps, both pirates beaten (R9.1-R9.4), the game won "
                   "and scored (R10.1, R10.3)", 1, 3, "veteran", {},
                   lambda g: g.won),
    "abilities_level2": ("R5: at least four of sort3, below_pile, exchange, double, copy and "
                         "destroy in one game, at level 2 (R2.2)", 2, 5, "expert", {},
                         lambda g: len({"sort3", "below_pile", "exchange1", "exchange2",
                                        "double", "copy", "destroy"} & abilities(g)) >= 4),
    "step_minus1_level3": ("R5.7: books lower the hazard value by one step; level 3 (R2.3)",
                           3, 7, "expert", {}, lambda g: "step_minus1" in abilities(g)),
    "old_age_level1": ("R7.1-R7.2: the Robinson stack runs out with no aging card left: the "
                       "game is lost to old age", 1, 11, "cull-green", {},
                       lambda g: g.cause == 2),
    "old_age_continue": ("§O old_age=continue: the game goes on after the aging cards run "
                         "out", 1, 11, "cull-green", {"old_age": "continue"},
                         lambda g: play_game(g.level, g.seed, g.game_index,
                                             load_policy("cull-green")).cause == 2),
    "special_pirate_level4": ("R9.5: a special pirate (all remaining hazards, or +2 per "
                              "aging card) fought at level 4 (R2.4, 18 life)", 4, 13,
                              "veteran", {},
                              lambda g: any(e["e"] == "pirate_choice" and e["fight"] in (67, 68)
                                            for e in g.trace)),
}


def find(level, seed, policy, options, wanted, tries=400):
    pol = load_policy(policy)
    for game in range(tries):
        g = play_game(level, seed, game, pol, Options(**options))
        if wanted(g):
            return game, g
    raise SystemExit(f"no game of seed {seed} in {tries} shows it")


def deal_of(g) -> dict:
    setup = g.trace[0]
    return {k: setup[k] for k in ("robinson_stack", "aging_stack", "hazard_stack", "pirates")}


def main():
    FOLDER.mkdir(exist_ok=True)
    for name, (about, level, seed, policy, options, wanted) in SCENARIOS.items():
        game, g = find(level, seed, policy, options, wanted)
        p = Playthrough(level, seed, game, Options(**options).as_dict(), deal_of(g),
                        about=[about, f"Played by {policy} (game {game} of seed {seed}, the "
                                      f"first that shows it); made by "
                                      f"tests/make_playthroughs.py."])
        p.items = replay_reference(p, load_policy(policy))
        write(FOLDER / f"{name}.txt", p)
        print(f"{name}: game {game}, {len(p.actions())} decisions, {len(p.events())} events")


if __name__ == "__main__":
    main()
