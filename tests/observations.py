"""Hand-made observations for policy tests (sim.observation's layout) and asking a policy."""
import numpy as np

import sim.cards as C
import sim.observation as O
from policies import load_policy
from policies.arith import oracle_effective_value, oracle_fight_total
from sim.actions import action_name

WEAK, DISTRACTED, FOCUSED, GENIUS = 5, 0, 15, 16          # start cards (weak 5..12)
STUPID = 19                                                # aging, -2, destroy cost 2
RAFT_FOOD, EXPLORING_WEAPON, FURTHER_REPEAT = 29, 41, 51   # hazards


def obs_with(phase, step=0, life=10, opponent=EXPLORING_WEAPON, fight=(), doubled=(), down=()):
    obs = np.zeros(O.OBS_SIZE, dtype=np.int64)
    obs[O.O_PHASE], obs[O.O_STEP], obs[O.O_LIFE], obs[O.O_MAX_LIFE] = phase, step, life, 22
    obs[O.O_LEVEL] = 1
    obs[O.O_PIRATE_1], obs[O.O_PIRATE_2] = 59, 60
    obs[O.O_OPPONENT] = opponent
    obs[O.O_FIGHT_VALUE] = C.HAZARD_VALUE[opponent, step]
    obs[O.O_PAID_COST] = 1
    obs[O.O_OPT_STEP_MINUS1_STACKS] = obs[O.O_OPT_PLUS1_COUNTS_DESTROYED] = 1
    for c in range(C.N_CARDS):
        obs[O.ZONE + c] = O.Z_ROBINSON_STACK if c < 29 else O.Z_HAZARD_STACK
    obs[O.ZONE + opponent] = O.Z_OPPONENT
    for c in fight:
        obs[O.ZONE + c] = O.Z_FIGHT_LEFT
    for c in doubled:
        obs[O.FLAGS + c] |= O.F_DOUBLED
    for c in down:
        obs[O.FLAGS + c] |= O.F_FACE_DOWN
    O.fill_derived(obs, C.FIGHT_VALUE)
    obs[O.CT:] = O.card_block(C)          # the printed table, as the engines fill it
    return obs


def decide(name, obs, legal, params=None):
    p = load_policy(name, params)
    O.fill_derived(obs, C.FIGHT_VALUE)          # the zones may have been changed by hand
    obs[O.O_FIGHT_TOTAL] = oracle_fight_total(obs)   # what the engines write (R4.6)
    obs[O.O_EFFECTIVE_VALUE] = oracle_effective_value(obs)   # and R5.7
    legal = np.array(sorted(legal), dtype=np.int64)
    return action_name(p.decide(obs, legal, len(legal), p.params, np.zeros(1, np.uint64)))
