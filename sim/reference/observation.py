"""Builds the observation (sim.observation layout) from the reference engine's zones."""
from __future__ import annotations

import numpy as np

from .. import observation as O
from ..cards import N_CARDS


def build_observation(game, phase: int) -> np.ndarray:
    obs = np.zeros(O.OBS_SIZE, dtype=np.int64)
    f = game.fight
    obs[O.O_PHASE], obs[O.O_LEVEL], obs[O.O_STEP] = phase, game.level, game.step
    obs[O.O_LIFE], obs[O.O_MAX_LIFE] = game.life, game.max_life
    obs[O.O_PIRATE_1], obs[O.O_PIRATE_2] = game.pirates if game.pirates else (-1, -1)
    obs[O.O_OPPONENT] = f.opponent if f else -1
    obs[O.O_OPPONENT_IS_PIRATE] = int(bool(f and f.is_pirate))
    obs[O.O_FIGHT_VALUE] = f.value if f else -1
    obs[O.O_FREE_LEFT] = f.free_left if f else 0
    obs[O.O_FREE_OPEN] = int(bool(f and game.free_open()))
    obs[O.O_PAID_COST] = game.paid_cost()
    obs[O.O_CARDS_DRAWN] = f.cards_drawn if f else 0
    obs[O.O_STEP_MINUS] = f.step_minus if f else 0
    obs[O.O_PENDING_CARD], obs[O.O_PENDING_ABILITY] = game.pending_card, game.pending_ability
    obs[O.O_DESTROY_BUDGET] = game.destroy_budget
    obs[O.O_N_ROBINSON_STACK] = len(game.robinson_stack)
    obs[O.O_N_ROBINSON_DISCARD] = len(game.robinson_discard)
    obs[O.O_N_AGING_STACK] = len(game.aging_stack)
    obs[O.O_N_HAZARD_STACK] = len(game.hazard_stack)
    obs[O.O_N_HAZARD_DISCARD] = len(game.hazard_discard)
    obs[O.O_AGING_TAKEN] = game.aging_in_game - len(game.aging_stack)
    obs[O.O_PIRATES_BEATEN] = len(game.pirates_beaten)
    known = game.known_top[:3]
    obs[O.O_KNOWN_TOP_N] = len(known)
    obs[O.O_KNOWN_TOP_0:O.O_KNOWN_TOP_0 + 3] = known + [-1] * (3 - len(known))
    obs[O.O_TURN] = game.turn
    obs[O.O_OPT_OLD_AGE_CONTINUE] = int(game.options.old_age == "continue")
    obs[O.O_OPT_STEP_MINUS1_STACKS] = int(game.options.step_minus1_stacks)
    obs[O.O_OPT_PLUS1_COUNTS_DESTROYED] = int(game.options.plus1_counts_destroyed)

    zone = obs[O.ZONE:O.ZONE + N_CARDS]   # a view: default Z_OUT (0)
    for cards, z in ((game.robinson_stack, O.Z_ROBINSON_STACK),
                     (game.robinson_discard, O.Z_ROBINSON_DISCARD),
                     (game.aging_stack, O.Z_AGING_STACK), (game.hazard_stack, O.Z_HAZARD_STACK),
                     (game.hazard_discard, O.Z_HAZARD_DISCARD),
                     (game.hazards_drawn, O.Z_HAZARD_DRAWN), (game.removed, O.Z_REMOVED),
                     (game.pirates, O.Z_PIRATE), (game.pirates_beaten, O.Z_PIRATE_BEATEN),
                     (game.sort_hand, O.Z_SORT)):
        for c in cards:
            zone[c] = z
    if f:
        zone[f.opponent] = O.Z_OPPONENT
        zone[f.left], zone[f.right] = O.Z_FIGHT_LEFT, O.Z_FIGHT_RIGHT
        flags = obs[O.FLAGS:O.FLAGS + N_CARDS]
        # used: kept for the whole fight, even if the card left (R4.5)
        for cards, bit in ((f.face_down, O.F_FACE_DOWN), (f.doubled, O.F_DOUBLED),
                           (f.used, O.F_USED)):
            for c in cards:
                flags[c] |= bit
    obs[O.CT:] = game.cards.obs_block()          # the game's card table (R1.4)
    O.fill_derived(obs, game.cards.FIGHT_VALUE)
    obs[O.O_FIGHT_TOTAL] = game.fight_total()[0] if f else 0     # the rules' count (R4.6)
    obs[O.O_EFFECTIVE_VALUE] = game.effective_value() if f else 0   # R5.7, R9.5
    return obs
