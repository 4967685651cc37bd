"""``Game``: one fast-engine game that you step, copy and resample from Python (notebooks, tools).

    from sim import Game
    g = Game.new(level=4, seed=1, game=0)       # game 0 of seed 1: the batch runner's deal
    g.legal_action_names()                      # ['fight:35', 'fight:47']
    g.step("fight:35"); print(g)
    h = g.resampled(seed=7)                      # the hidden orders redrawn (R1.4)
    g.play(load_policy("expert")); g.result      # {'won': ..., 'score': ..., 'cause': ...}

It wraps the very arrays of ``sim.fast.machine`` (``new_game``, ``step``, ``resample_hidden``),
so a game stepped here with the policy's answers is the batch runner's game, decision for
decision.  Each call is one jitted call: fine for notebooks and tests, not for millions of games
(``sim.fast.run_batch`` runs those inside Numba).
"""
from __future__ import annotations

import numpy as np

from sim import cards as C
from sim import observation as O
from sim.observation import cards_in, known_top
from sim.actions import N_ACTIONS, action_id, action_name, shown_action
from sim.names import CardNames
from sim.rng import mix64
from sim.errors import RuleError, UsageError
from sim.rules import (CAUSE_NAMES, STEP_NAMES, Options, as_options, check_level,
                       check_seed)
from sim.fast import layout as Y
from .picture import MARKS, position_html, table_rows

__all__ = ["Game", "as_action", "engine_table", "position_lines"]

_POLICIES: dict = {}


def _policy(policy):
    """(the Policy, its own runner or None, its compiled decide or None) of a policy name or
    policies.Policy (sim.contract.player: a player with a runner decides on its own)."""
    from policies import load_policy
    from sim.contract import callable_decide
    from sim.contract.player import runner_of
    hit = _POLICIES.get(policy) if isinstance(policy, str) else None
    if hit is None:
        pol = load_policy(policy)
        runner = runner_of(pol)
        hit = (pol, runner, None if runner else callable_decide(pol))
        if isinstance(policy, str):
            _POLICIES[policy] = hit
    return hit


def as_action(action) -> int:
    """An action id (an int) or name (``"draw"``, ``"fight:35"``) as its id (sim.actions)."""
    if isinstance(action, str):
        return action_id(action)
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]                            # a 0-d array, as some agents give
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    raise UsageError(f"action {action!r} is not an action: give an action id (an int) or a "
                     f"name such as 'draw' (g.legal_action_names())")


class Game:
    """One game of Friday on the fast engine: a state machine that waits at each decision."""

    def __init__(self, arrays, level: int, seed: int, game: int, options: Options,
                 table_shuffles: dict | None = None):
        self.arrays = Y.GameArrays(*arrays)      # the engine's state record (its 12 arrays)
        for name, a in zip(Y.GameArrays._fields, self.arrays):
            setattr(self, "_" + name, a)           # self._S, self._obs, ...: the same arrays
        self.level, self.seed, self.game, self.options = level, seed, game, options
        # the deal's table shuffles (sim.deal RESHUFFLE_KEYS), fed to the engine one by one
        self._table_shuffles = table_shuffles or {}

    # --- making games --------------------------------------------------------------------
    @classmethod
    def new(cls, level: int = 4, seed: int = 1, game: int = 0, options=None, deal=None,
            trace: bool = False, table: np.ndarray | None = None) -> "Game":
        """Game ``game`` of master seed ``seed`` at ``level``, waiting at its first decision
        (the same deal as ``run_batch``'s game ``game``).  ``deal``: a deal dict or file
        (docs/how-to/replay-a-table-game.md); ``trace``: keep the TRACE.md events (``.trace``); ``table``: a
        card table (a ``sim.cardtable.CardTable``, or ``sim.fast.layout.card_table()`` edited:
        checked by ``engine_table``), else the game's own.  Every argument is checked before
        anything is compiled or played (UsageError)."""
        from sim.fast import api, runner
        from sim.fast.state import new_state
        level, options = check_level(level), as_options(options)
        seed, game = check_seed(seed), check_seed(game, "game")
        if not isinstance(trace, (bool, np.bool_)):
            raise UsageError(f"trace must be True or False, not {trace!r}", "trace")
        T = api._T if table is None else engine_table(table)
        arrays = new_state(T, np.zeros(1, np.float64), trace)
        arrays.S[Y.S_TRACE] = 1 if trace else 0
        D = api._deal_array(level, deal) if deal else np.zeros((1, 1), np.int64)
        runner.entry("new")(arrays, D, level, seed, game, api._opts(options))
        g = cls(arrays, level, seed, game, options, _table_shuffles(deal))
        g._after_chance()
        return g

    def clone(self) -> "Game":
        """An independent copy (same position, same random streams: it continues alike)."""
        arrays = [a if a is self._T else a.copy() for a in self.arrays]
        return Game(arrays, self.level, self.seed, self.game, self.options,
                    self._table_shuffles)

    def resampled(self, seed: int) -> "Game":
        """A copy in which every order the player cannot know (R1.4) is redrawn uniformly
        from ``seed`` (sim.fast.machine.resample_hidden): same observation, same legal
        actions, new hidden stacks and a new engine stream for future reshuffles."""
        from sim.fast import runner
        seed = check_seed(seed)
        g = self.clone()
        g._table_shuffles = {}                  # the table's later shuffles: unknown too
        rng = np.array([mix64(seed)], dtype=np.uint64)
        runner.entry("resample")(g.arrays, rng)
        return g

    # --- the decision ----------------------------------------------------------------------
    @property
    def observation(self) -> np.ndarray:
        """The observation (sim.observation layout), a copy."""
        return self._obs.copy()

    @property
    def phase(self) -> str:
        """The kind of decision waited for (sim.observation.PHASE_NAMES); 'none' at the end."""
        return O.PHASE_NAMES[int(self._obs[O.O_PHASE])]

    @property
    def is_over(self) -> bool:
        return bool(self._S[Y.S_ENDED])

    @property
    def decisions(self) -> int:
        """The decisions the player has made so far in this game (each step; R0)."""
        return int(self._S[Y.S_DECISIONS])

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending (sim.actions); [] once the game is over."""
        return self._L[:int(self._S[Y.S_NLEGAL])].tolist()

    def legal_action_names(self) -> list[str]:
        return [action_name(a) for a in self.legal_actions()]

    def legal_mask(self) -> np.ndarray:
        """int8 mask over the whole action space (sim.actions.N_ACTIONS)."""
        m = np.zeros(N_ACTIONS, np.int8)
        m[self.legal_actions()] = 1
        return m

    def step(self, action) -> "Game":
        """Play ``action`` (an id or a name such as ``"draw"``) and go on to the next decision;
        chance (draws, reshuffles) is resolved inside from the game's stream."""
        from sim.fast import runner
        if self.is_over:
            raise RuleError("the game is over: no action is legal")
        a = as_action(action)
        if a not in self.legal_actions():
            raise RuleError(f"{shown_action(a)} is not legal at this {self.phase} decision; legal: "
                            f"{', '.join(self.legal_action_names())}")
        runner.entry("step")(self.arrays, a)
        self._after_chance()
        return self

    def _after_chance(self):
        """A table shuffle the game could not have had, or one more than it had, is a
        RuleError (sim.deal); else the engine gets the next table shuffle of each stack
        (sim.fast.layout P_TABLE_R, P_TABLE_H)."""
        if not self._table_shuffles:
            return
        from sim.deal import unused_shuffles
        from sim.fast.api import shuffle_error
        S, P = self._S, self._P
        if S[Y.S_ERR] == Y.ERR_SHUFFLE:
            raise RuleError(shuffle_error(S, P))
        for key, row, done, held in (("robinson_reshuffles", Y.P_TABLE_R, Y.S_SHUF_R,
                                      Y.S_TABLE_R),
                                     ("hazard_reshuffles", Y.P_TABLE_H, Y.S_SHUF_H, Y.S_TABLE_H)):
            orders, k = self._table_shuffles.get(key, []), int(S[done])
            if S[held] == 0 and k < len(orders):
                P[row, :len(orders[k])] = orders[k]
                S[Y.CNT + row], S[held] = len(orders[k]), k + 1
        if self.is_over:
            unused = unused_shuffles(self._table_shuffles,
                                     {"robinson_reshuffles": int(S[Y.S_SHUF_R]),
                                      "hazard_reshuffles": int(S[Y.S_SHUF_H])})
            if unused:
                raise RuleError(unused)

    def policy_action(self, policy) -> int:
        """What ``policy`` (a name or policies.Policy) answers here, drawing from this game's
        policy stream as the batch runner does."""
        pol, runner, fn = _policy(policy)
        if runner is not None:                      # its own runner: the search on this state
            return runner.decide(self)
        from sim.contract import decide_once, params_copy
        return decide_once(pol, fn, self._obs, self._L, int(self._S[Y.S_NLEGAL]),
                           params_copy(pol), self._PR, int(self._S[Y.S_DECISIONS]) + 1,
                           (self.seed, self.game))

    def play(self, policy) -> dict:
        """Play to the end with ``policy``; the result.  Ctrl-C and the time limit of a
        decision stop a policy that never returns (sim.contract.interrupt.interruptible)."""
        from sim.contract import interruptible

        def play_out():
            while not self.is_over:
                self.step(self.policy_action(policy))
        interruptible(play_out)
        return self.result

    # --- the end ---------------------------------------------------------------------------
    @property
    def result(self) -> dict | None:
        """won, score, cause, life, step, turn, ... once the game is over (else None)."""
        if not self.is_over:
            return None
        S = self._S
        return {"won": bool(S[Y.S_WON]), "score": int(S[Y.S_SCORE]),
                "cause": CAUSE_NAMES[int(S[Y.S_CAUSE])], "life": int(S[Y.S_LIFE]),
                "step": STEP_NAMES[int(S[Y.S_STEP])], "turns": int(S[Y.S_TURN]),
                "aging_taken": int(S[Y.S_AGING_IN_GAME] - S[Y.CNT + Y.P_AGING]),
                "destroyed": int(S[Y.S_DESTROYED]),
                "fights_won": [int(x) for x in S[Y.S_FW:Y.S_FW + 3]],
                "fights_lost": [int(x) for x in S[Y.S_FL:Y.S_FL + 3]]}

    @property
    def trace(self) -> list[dict]:
        """The TRACE.md events so far (``Game.new(..., trace=True)``)."""
        from sim.fast.decode import decode_events
        if not self._S[Y.S_TRACE]:
            raise UsageError("this game keeps no trace: Game.new(..., trace=True)")
        return decode_events(self._E, int(self._S[Y.S_EPOS]))

    # --- drawing ---------------------------------------------------------------------------
    def __repr__(self) -> str:
        state = "over" if self.is_over else f"waits at a {self.phase} decision"
        return f"<Game level {self.level} seed {self.seed} game {self.game}: {state}>"

    def _repr_html_(self) -> str:
        """The position drawn with the cards' faces (sim.play.picture): ``g`` in a notebook."""
        return position_html(self._obs, table_rows(self._T),
                             f"Friday, level {self.level}, seed {self.seed}, game {self.game}",
                             self._waiting())

    def _waiting(self) -> str:
        """The decision waited for and its legal actions, or the result."""
        if self.is_over:
            r = self.result
            return (f"game over: {'won' if r['won'] else 'lost'} ({r['cause']}), score "
                    f"{r['score']}")
        return f"{self.phase} decision, legal: {', '.join(self.legal_action_names())}"

    def __str__(self) -> str:
        """The position in plain text (``position_lines``, cards tagged with their ids), then
        the decision waited for and its legal actions, or the result."""
        lines = [f"Friday, level {self.level}, seed {self.seed}, game {self.game}"]
        for spans in position_lines(self._obs, CardNames(C.header_table(), ids=True)):
            lines.append("".join(sp if isinstance(sp, str) else sp[0] for sp in spans))
        lines.append(self._waiting())
        return "\n".join(lines)


# the rows of the engine's card table a table may change, and their ranges (sim.cardtable)
_T_RANGES = {Y.T_VALUE: "fight_value", Y.T_DCOST: "destroy_cost", Y.T_HFREE: "hazard_free_cards",
             Y.T_HV0: "hazard_green", Y.T_HV1: "hazard_yellow", Y.T_HV2: "hazard_red",
             Y.T_PFREE: "pirate_free_cards", Y.T_PVALUE: "pirate_hazard_value"}


def engine_table(table) -> np.ndarray:
    """The engine's card table ``T`` (int64, ``sim.fast.layout`` rows T_*, one column per
    card) of ``table``: a ``sim.cardtable.CardTable``, or an integer array of T's shape whose
    kinds are the printed ones (R1.1: ids and kinds are fixed) and whose values, abilities
    included, lie in the ranges a card table allows (sim.cardtable.RANGES); else UsageError."""
    from sim.cardtable import RANGES, CardTable
    if isinstance(table, CardTable):
        return Y.card_table(table)
    printed = Y.card_table()
    T = np.asarray(table) if isinstance(table, (np.ndarray, list, tuple)) else None
    if T is None or T.shape != printed.shape:
        got = f"shape {T.shape}" if T is not None else type(table).__name__
        raise UsageError(f"table must be a card table of shape {printed.shape} "
                         f"(sim.fast.layout.card_table(), edited) or a CardTable, not {got}",
                         "table")
    if not np.issubdtype(T.dtype, np.integer):
        raise UsageError(f"table must hold whole numbers (an integer array), not {T.dtype}",
                         "table")
    for row, what in ((Y.T_KIND, "kind"), (Y.T_AGING, "aging mark")):
        if not np.array_equal(T[row], printed[row]):
            card = int(np.flatnonzero(T[row] != printed[row])[0])
            raise UsageError(f"table changes the {what} of card {card}: ids and kinds are "
                             f"fixed (R1.1)", "table")
    limits = {**{row: (name, *RANGES[name]) for row, name in _T_RANGES.items()},
              Y.T_ABILITY: ("ability", 0, len(C.ABILITY_NAMES) - 1),
              Y.T_PABILITY: ("pirate_ability", 0, len(C.PIRATE_ABILITY_NAMES) - 1)}
    for row, (name, low, high) in limits.items():
        bad = np.flatnonzero((T[row] < low) | (T[row] > high))
        if len(bad):
            raise UsageError(f"table gives card {int(bad[0])} the {name} {int(T[row, bad[0]])}:"
                             f" outside {low}..{high}", "table")
    return np.ascontiguousarray(T, dtype=np.int64)


def _table_shuffles(deal) -> dict:
    """The deal's table shuffles (sim.deal RESHUFFLE_KEYS; api._deal_array checked them); {}
    for none."""
    if not deal:
        return {}
    from sim.deal import RESHUFFLE_KEYS, load_deal
    given = load_deal(deal)
    return {key: given[key] for key in RESHUFFLE_KEYS if given.get(key)}


def position_lines(obs, names: CardNames) -> list[list]:
    """The position as a player may know it (R1.4), from the observation alone: step, turn,
    life, the piles (the Robinson stack and discard by contents, never their order, except
    the cards put on top with sort3), the pirates, the hazards drawn, the fight with the
    engine's total (R4.6) and value at the comparison (R5.7), sort3's hand, the destroy
    budget.  Lines of spans, each a text or (text, rich style) (``friday play``, ``print(g)``)."""
    n, lines = names, []
    step, life = STEP_NAMES[int(obs[O.O_STEP])], f"life {obs[O.O_LIFE]} of {obs[O.O_MAX_LIFE]}"
    lines.append([(f"-- {step} step", "bold"), f", turn {obs[O.O_TURN]}: ", (life, "bold cyan"),
                  f"; hazard stack {obs[O.O_N_HAZARD_STACK]}, hazard discard "
                  f"{obs[O.O_N_HAZARD_DISCARD]}, aging stack {obs[O.O_N_AGING_STACK]}, removed "
                  f"{len(cards_in(obs, O.Z_REMOVED))} --"])
    stack, discard = cards_in(obs, O.Z_ROBINSON_STACK), cards_in(obs, O.Z_ROBINSON_DISCARD)
    known = known_top(obs)
    lines.append([f"Robinson's stack ({len(stack)}): {n.grouped(stack) or 'empty'}" +
                  (f"; on top, as you put them: {n.listing(known)}" if known else "")])
    lines.append([f"Robinson's discard ({len(discard)}): {n.grouped(discard) or 'empty'}"])
    pirates, beaten = (obs[O.O_PIRATE_1], obs[O.O_PIRATE_2]), cards_in(obs, O.Z_PIRATE_BEATEN)
    lines.append(["Pirates: " + "; ".join(f"{n.pirate(p)}{' (beaten)' if p in beaten else ''}"
                                          for p in pirates if p >= 0)])
    if hazards := cards_in(obs, O.Z_HAZARD_DRAWN):
        lines.append([f"Hazards drawn: {n.listing(hazards, n.hazard)}"])
    if obs[O.O_OPPONENT] >= 0 and obs[O.O_PHASE] != O.PH_NONE:
        lines += _fight_lines(obs, n)
    if hand := cards_in(obs, O.Z_SORT):
        lines.append([f"Sort3, the cards you took: {n.listing(hand)}"])
    if obs[O.O_DESTROY_BUDGET] > 0:
        lines.append([f"Fight lost: destroy budget {obs[O.O_DESTROY_BUDGET]} left "
                      f"(1 per start or knowledge card, 2 per aging card, R4.8)"])
    return lines


def _fight_lines(obs, n: CardNames) -> list[list]:
    """The fight: the opponent, its value (and at the comparison), the free cards left, the
    cards on each side with their marks, and the total against the value."""
    value, eff, total = (int(obs[i]) for i in (O.O_FIGHT_VALUE, O.O_EFFECTIVE_VALUE,
                                               O.O_FIGHT_TOTAL))
    side = "pirate" if obs[O.O_OPPONENT_IS_PIRATE] else "hazard side"
    lower = f", {eff} at the comparison" if eff != value else ""
    text = f" ({side}): value {value}{lower}; free cards left {obs[O.O_FREE_LEFT]}"
    if obs[O.O_FREE_LEFT] and not obs[O.O_FREE_OPEN]:
        text += " (free drawing stopped)"
    lines = [["Fight against ", (n.opponent(int(obs[O.O_OPPONENT])), "bold"), text]]
    for label, zone in (("left (free)", O.Z_FIGHT_LEFT), ("right", O.Z_FIGHT_RIGHT)):
        marked = []
        for c in cards_in(obs, zone):
            marks = [m for bit, m in MARKS if obs[O.FLAGS + c] & bit]
            marked.append(n.card(c) + (f" [{', '.join(marks)}]" if marks else ""))
        if marked:
            lines.append([f"  {label}: " + ", ".join(marked)])
    verdict = "beaten" if total >= eff else f"{eff - total} missing"
    lines.append(["  total ", (f"{total}", "bold cyan"), f" against {eff}: {verdict}"])
    return lines
