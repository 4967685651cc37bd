"""The observation a policy sees: one int64 array with named index constants (R1.4).

It holds only what a player may know: life, step, the current fight, the *contents* of every
pile (as a zone per card, never the hidden order), the two pirates, and the top cards that the
player put back itself with sort3.  Both engines fill it identically; the Numba engine keeps it
up to date in place, the reference engine builds it anew for each decision.

Layout: ``obs[SCALAR]`` for the scalars below, ``obs[ZONE + card]`` the zone of each card,
``obs[FLAGS + card]`` the fight flags of each card.
"""
from __future__ import annotations

from .cards import N_CARDS

# --- decision phases (what kind of decision is asked) -----------------------------------
(PH_NONE, PH_HAZARD, PH_PIRATE, PH_FIGHT, PH_TARGET, PH_MORE, PH_SORT_TAKE, PH_SORT_DISCARD,
 PH_SORT_ORDER, PH_DESTROY) = range(10)
PHASE_NAMES = ("none", "hazard", "pirate", "fight", "target", "more", "sort_take",
               "sort_discard", "sort_order", "destroy")

# --- zones (obs[ZONE + card]) -----------------------------------------------------------
(Z_OUT, Z_ROBINSON_STACK, Z_ROBINSON_DISCARD, Z_AGING_STACK, Z_HAZARD_STACK, Z_HAZARD_DISCARD,
 Z_HAZARD_DRAWN, Z_FIGHT_LEFT, Z_FIGHT_RIGHT, Z_REMOVED, Z_PIRATE, Z_PIRATE_BEATEN, Z_OPPONENT,
 Z_SORT) = range(14)
ZONE_NAMES = ("out", "robinson_stack", "robinson_discard", "aging_stack", "hazard_stack",
              "hazard_discard", "hazard_drawn", "left", "right", "removed", "pirate",
              "pirate_beaten", "opponent", "sort3_hand")

# --- fight flags (obs[FLAGS + card]) ----------------------------------------------------
F_FACE_DOWN, F_DOUBLED, F_USED = 1, 2, 4

# --- scalars ----------------------------------------------------------------------------
(O_PHASE, O_LEVEL, O_STEP, O_LIFE, O_MAX_LIFE, O_PIRATE_1, O_PIRATE_2, O_OPPONENT,
 O_OPPONENT_IS_PIRATE, O_FIGHT_VALUE, O_FREE_LEFT, O_FREE_OPEN, O_PAID_COST, O_CARDS_DRAWN,
 O_STEP_MINUS, O_PENDING_CARD, O_PENDING_ABILITY, O_DESTROY_BUDGET, O_N_ROBINSON_STACK,
 O_N_ROBINSON_DISCARD, O_N_AGING_STACK, O_N_HAZARD_STACK, O_N_HAZARD_DISCARD, O_AGING_TAKEN,
 O_PIRATES_BEATEN, O_KNOWN_TOP_N, O_KNOWN_TOP_0, O_KNOWN_TOP_1, O_KNOWN_TOP_2, O_TURN,
 O_OPT_OLD_AGE_CONTINUE, O_OPT_STEP_MINUS1_STACKS, O_OPT_PLUS1_COUNTS_DESTROYED) = range(33)
N_SCALARS = 33
SCALAR_NAMES = (
    "phase", "level", "step", "life", "max_life", "pirate_1", "pirate_2", "opponent",
    "opponent_is_pirate", "fight_value", "free_left", "free_open", "paid_cost", "cards_drawn",
    "step_minus", "pending_card", "pending_ability", "destroy_budget", "n_robinson_stack",
    "n_robinson_discard", "n_aging_stack", "n_hazard_stack", "n_hazard_discard", "aging_taken",
    "pirates_beaten", "known_top_n", "known_top_0", "known_top_1", "known_top_2", "turn",
    "opt_old_age_continue", "opt_step_minus1_stacks", "opt_plus1_counts_destroyed")
ZONE = N_SCALARS
FLAGS = N_SCALARS + N_CARDS

# --- derived from the zones (after the flags; for fast policy arithmetic) ----------------
N_FIGHTING = 59                   # Robinson's cards (start, aging, knowledge): ids 0..58
MAX_VALUE = 9                     # the highest fight value a card table may give (sim.cardtable)
O_N_FIGHT = FLAGS + N_CARDS       # cards in the fight (zones left and right)
O_DECK_N = O_N_FIGHT + 1          # Robinson's cards in robinson_stack + robinson_discard
O_DECK_SUM = O_N_FIGHT + 2        # their fight values summed
O_STACK_VALUE = O_N_FIGHT + 3     # O_STACK_VALUE + v - 1: cards of value v (1..4) in the stack
FIGHT_LIST = O_STACK_VALUE + MAX_VALUE   # the fight's cards by ascending id, then -1
O_FIGHT_TOTAL = FIGHT_LIST + N_FIGHTING  # the fight's total as R4.6 counts it now; 0 outside
O_EFFECTIVE_VALUE = O_FIGHT_TOTAL + 1    # the value that total is compared with (R5.7); 0 outside

# --- the game's card table (static; after the fight list) ----------------------------------
# A player reads the cards (R1.4): both engines copy the table the game is played with into
# this block at set-up, and the policies read card data here, never from sim.cards, so a
# what-if table (sim.cardtable) needs no recompilation.  obs[CT_X + card] is card's X; the
# hazard value at step s (green 0, yellow 1, red 2) is obs[CT_HAZARD_VALUE + s * N_CARDS + card].
CT = O_EFFECTIVE_VALUE + 1
CT_ROWS = ("fight_value", "ability", "destroy_cost", "hazard_free", "hazard_green",
           "hazard_yellow", "hazard_red", "pirate_free", "pirate_value", "pirate_ability",
           "is_aging")          # the rows of sim.fast.layout.card_table after T_KIND, in order
(CT_VALUE, CT_ABILITY, CT_DESTROY_COST, CT_HAZARD_FREE, CT_HAZARD_VALUE, _CT_HY, _CT_HR,
 CT_PIRATE_FREE, CT_PIRATE_VALUE, CT_PIRATE_ABILITY, CT_AGING) = (
    CT + k * N_CARDS for k in range(len(CT_ROWS)))
OBS_SIZE = CT + len(CT_ROWS) * N_CARDS

# Meaning of the scalars that need one:
#   fight_value   the opponent's value at the current step before step_minus1 (pirates: as
#                 fixed at the fight's start, R9.5); -1 outside a fight
#   free_open     1 if a free card may be drawn now (R4.2, R4.3, R6.4)
#   pending_card  card whose ability is being carried out (the copy card for a copy), else -1
#   pending_ability  ability being carried out (cards.AB_*), else -1
#   aging_taken   aging cards that have left the aging stack (R9.5 plus2_per_aging)
#   known_top_*   cards the player put on top of the robinson_stack with sort3, top first
# After the flags, derived from the zones (both engines fill them; fill_derived): the number
# of fight cards and their ids ascending (FIGHT_LIST, padded with -1), the count and value sum
# of Robinson's cards in robinson_stack + robinson_discard, and how many cards of each value
# 1..4 the robinson_stack holds.
#   fight_total   (after the fight list) the fight's total now (R4.6 with R5.3, R5.4, R6.2 and
#                 R9.5), 0 outside a fight: each engine fills it at every decision from its
#                 own count of the fight (the one owner of that rule), so policies read it
#   effective_value  (next) the opponent's value at the comparison: the hazard's value one
#                 step lower per step_minus1 (R5.7), the pirate's as fixed (R9.5); 0 outside
#                 a fight; written by the engines beside fight_total, read by policies


def card_block(t):
    """The card-table block (obs[CT:OBS_SIZE]) of a card table ``t`` (sim.cardtable)."""
    import numpy as np
    rows = (t.FIGHT_VALUE, t.ABILITY, t.DESTROY_COST, t.HAZARD_FREE, t.HAZARD_VALUE[:, 0],
            t.HAZARD_VALUE[:, 1], t.HAZARD_VALUE[:, 2], t.PIRATE_FREE, t.PIRATE_VALUE,
            t.PIRATE_ABILITY, t.IS_AGING)
    return np.concatenate([np.asarray(r, dtype=np.int64) for r in rows])


def fill_derived(obs, values) -> None:
    """Fill the derived block (O_N_FIGHT .. the fight list) of a numpy observation from its
    zones; ``values`` are the cards' fight values (the game's card table).  O_FIGHT_TOTAL is
    not derived here: the engine that counts the fight (R4.6) writes it, and O_EFFECTIVE_VALUE."""
    import numpy as np
    zone = obs[ZONE:ZONE + N_FIGHTING]
    values = np.asarray(values)[:N_FIGHTING]
    fight = np.flatnonzero((zone == Z_FIGHT_LEFT) | (zone == Z_FIGHT_RIGHT))
    stack = zone == Z_ROBINSON_STACK
    deck = stack | (zone == Z_ROBINSON_DISCARD)
    obs[O_N_FIGHT] = len(fight)
    obs[O_DECK_N] = int(deck.sum())
    obs[O_DECK_SUM] = int(values[deck].sum())
    counts = np.bincount(np.clip(values[stack], 0, MAX_VALUE), minlength=MAX_VALUE + 1)
    obs[O_STACK_VALUE:O_STACK_VALUE + MAX_VALUE] = counts[1:]
    obs[FIGHT_LIST:FIGHT_LIST + N_FIGHTING] = -1
    obs[FIGHT_LIST:FIGHT_LIST + len(fight)] = fight


def describe(obs) -> dict:
    """Readable dict of an observation (debugging, notebooks)."""
    out = {name: int(obs[i]) for i, name in enumerate(SCALAR_NAMES)}
    out["zones"] = {c: ZONE_NAMES[int(obs[ZONE + c])] for c in range(N_CARDS)}
    out["flags"] = {c: int(obs[FLAGS + c]) for c in range(N_CARDS) if obs[FLAGS + c]}
    out["card_table"] = {name: tuple(int(v) for v in obs[CT + k * N_CARDS:CT + (k + 1) * N_CARDS])
                         for k, name in enumerate(CT_ROWS)}
    return out


def cards_in(obs, zone: int) -> list[int]:
    """The cards that the observation ``obs`` has in ``zone`` (Z_*), by id."""
    return [c for c in range(N_CARDS) if obs[ZONE + c] == zone]


def known_top(obs) -> list[int]:
    """The cards the player put on top of Robinson's stack (sort3), top first."""
    return [int(obs[O_KNOWN_TOP_0 + i]) for i in range(int(obs[O_KNOWN_TOP_N]))]
