"""Random-play conformance of the reference engine: invariants checked before every decision
and every trace line validated against TRACE.md.

Two policies: the project's ``random`` policy (1,000 games per level; it usually dies in
green) and ``Greedy``, a simple test-only strategy that reaches yellow, red and the pirates.
"""
import json
from collections import Counter

import numpy as np
import pytest

import sim.cards as C
import sim.observation as O
from helpers import check_conservation
from policies import load_policy
from sim.actions import A_DONE, A_DRAW, A_END, A_MORE, A_PAY, A_USE, action_name
from sim.reference import Game
from sim.rules import CAUSE_NAMES, STEP_NAMES, Options

INT, BOOL, STR, DICT = "int", "bool", "str", "dict"
INTS, OPT_INT = "ints", "int|null"
# TRACE.md events: field -> type (every field required; extra ones only under "x")
SCHEMA = {
    "setup": {"robinson_stack": INTS, "hazard_stack": INTS, "aging_stack": INTS,
              "pirates": INTS, "life": INT, "max_life": INT},
    "step": {"step": STR, "hazard_stack": INTS},
    "hazards_drawn": {"cards": INTS},
    "hazard_choice": {"fight": OPT_INT, "discarded": INTS},
    "pirate_choice": {"fight": INT},
    "fight_start": {"opponent": INT, "kind": STR, "free_cards": INT, "value": INT},
    "draw": {"card": INT, "side": STR, "cost": INT, "reason": STR},
    "reshuffle": {"aging_added": OPT_INT, "robinson_stack": INTS},
    "ability": {"card": INT, "ability": STR, "target": OPT_INT, "via_copy": OPT_INT,
                "detail": DICT},
    "life": {"delta": INT, "life": INT, "reason": STR},
    "fight_end": {"total": INT, "value": INT, "won": BOOL, "life_paid": INT, "destroyed": INTS,
                  "removed": INTS},
    "game_end": {"won": BOOL, "cause": STR, "life": INT, "score": INT, "step": STR},
}
# a game from a position (sim.deal) writes these in its setup too, all of them (docs/TRACE.md,
# the project's extension); a game from the ordinary set-up none
POSITION_SETUP = {"robinson_discard": INTS, "hazard_discard": INTS, "removed": INTS,
                  "step": STR}
# TRACE.md's header: field -> type (every field required; extra ones only under "x")
HEADER = {"format": STR, "version": INT, "engine": STR, "level": INT, "seed": INT, "game": INT,
          "policy": STR, "options": DICT, "cards": "cards"}
CARD = {"id": INT, "kind": STR, "name": STR, "fight_value": INT, "ability": STR,
        "destroy_cost": INT, "hazard": "hazard|null", "pirate": "pirate|null"}
ENUMS = {
    ("step", "step"): set(STEP_NAMES), ("game_end", "step"): set(STEP_NAMES),
    ("setup", "step"): set(STEP_NAMES[:3]),
    ("fight_start", "kind"): {"hazard", "pirate"},
    ("draw", "side"): {"left", "right"},
    ("draw", "reason"): {"free", "paid", "ability", "exchange", "replace"},
    ("ability", "ability"): set(C.ABILITY_NAMES) - {"none"},
    ("life", "reason"): {"paid_draw", "lost_fight", "aging", "ability"},
    ("game_end", "cause"): set(CAUSE_NAMES),
}


def _is_int(v):
    return type(v) is int           # not bool, not numpy


def check_type(kind, v):
    if kind == INT:
        return _is_int(v)
    if kind == OPT_INT:
        return v is None or _is_int(v)
    if kind == BOOL:
        return type(v) is bool
    if kind == STR:
        return type(v) is str
    if kind == DICT:
        return type(v) is dict
    if kind == INTS:
        return type(v) is list and all(_is_int(c) and 0 <= c < C.N_CARDS for c in v)
    raise AssertionError(kind)


def validate_header(head, engine=None):
    """The header line against TRACE.md: every field, nothing extra outside ``x``, the card
    table (one entry per card, ids in order, hazard and pirate sides of the right kinds) and
    every rule option of RULES.md §O with a value of §O."""
    assert head["e"] == "header" and set(head) - {"e", "x"} == set(HEADER), sorted(head)
    for field, kind in HEADER.items():
        assert kind == "cards" or check_type(kind, head[field]), f"{field} of the header"
    assert head["format"] == "friday-trace" and head["version"] == 1
    assert head["engine"] in ({"reference", "fast"} if engine is None else {engine})
    assert head["level"] in (1, 2, 3, 4) and head["seed"] >= 0 and head["game"] >= 0
    assert set(head["options"]) == set(Options().as_dict())
    assert head["options"]["old_age"] in ("lose", "continue")
    assert all(type(v) is bool for k, v in head["options"].items() if k != "old_age")
    assert type(head.get("x", {})) is dict
    cards = head["cards"]
    assert type(cards) is list and [c["id"] for c in cards] == list(range(C.N_CARDS))
    for card in cards:
        assert set(card) == set(CARD), card
        for field, kind in CARD.items():
            assert "|" in kind or check_type(kind, card[field]), f"{field} of {card}"
        assert card["kind"] in C.KIND_NAMES and card["kind"] == C.KIND_NAMES[C.KIND[card["id"]]]
        assert card["ability"] in C.ABILITY_NAMES
        hazard, pirate = card["hazard"], card["pirate"]
        assert (hazard is not None) == (card["kind"] == "hazard"), card
        assert (pirate is not None) == (card["kind"] == "pirate"), card
        if hazard is not None:
            assert set(hazard) == {"title", "free", "values"} and type(hazard["title"]) is str
            assert _is_int(hazard["free"]) and len(hazard["values"]) == 3
            assert all(_is_int(v) for v in hazard["values"])
        if pirate is not None:
            assert set(pirate) == {"free", "value", "ability"}
            assert _is_int(pirate["free"]) and _is_int(pirate["value"])
            assert pirate["ability"] in C.PIRATE_ABILITY_NAMES
    json.loads(json.dumps(head))


# the checks that apply to some events only: an enum field (ENUMS), an event's own rule
# (the setup's step: games from a position only, test_games_from_a_position_conform)
OWN_CHECKS = (set(ENUMS) - {("setup", "step")}) | {"hazards_drawn", "setup", "draw", "life",
                                                    "sort3", "game_end"}


def validate_trace(trace, max_life) -> set:
    """Every line valid against TRACE.md, JSON-serialisable; order: setup, step green first,
    game_end once and last; life events consistent with a running life count.  Returns the
    OWN_CHECKS that ran (the tests check that each one ran on some trace)."""
    ran = set()
    assert trace[0]["e"] == "setup" and trace[1] == {
        "e": "step", "step": trace[0].get("step", "green"),
        "hazard_stack": trace[0]["hazard_stack"]}
    assert trace[-1]["e"] == "game_end"
    assert sum(e["e"] == "game_end" for e in trace) == 1
    json.loads(json.dumps(trace))
    life = trace[0]["life"]
    for ev in trace:
        name = ev.get("e")
        assert name in SCHEMA, f"unknown event {ev}"
        schema = {**SCHEMA[name], **(POSITION_SETUP if name == "setup" and "step" in ev
                                     else {})}
        fields = set(ev) - {"e", "x"}
        assert fields == set(schema), f"fields of {ev}"
        for field, kind in schema.items():
            assert check_type(kind, ev[field]), f"{field} of {ev}"
            if (name, field) in ENUMS:
                assert ev[field] in ENUMS[name, field], f"{field} of {ev}"
                ran.add((name, field))
        if name == "hazards_drawn":
            assert len(ev["cards"]) in (1, 2)
        if name == "setup":
            assert len(ev["pirates"]) == 2
        if name == "draw":
            assert ev["cost"] >= 0 and (ev["cost"] > 0) == (ev["reason"] == "paid")
        if name == "life":
            assert ev["delta"] != 0
            life += ev["delta"]
            assert ev["life"] == life and 0 <= life <= max_life
        if name == "ability" and ev["ability"] == "sort3":
            assert set(ev["detail"]) == {"seen", "discarded", "order"}
            ran.add("sort3")
        if name == "game_end":
            assert ev["life"] == life
            assert ev["won"] == (ev["cause"] == "won")
        ran.update({name} & OWN_CHECKS)
    return ran


class CheckedGame(Game):
    """Checks the invariants before every decision, and the observation the policy is given
    there; ``fight_decisions`` counts those taken in a fight, whose invariants are checked too
    (every game has some: R3.1, R4.4)."""

    fight_decisions = 0
    observed = 0                # observations checked: one per decision

    def decide(self, phase, legal):
        check_conservation(self)
        assert 0 <= self.life <= self.max_life
        assert legal and len(set(legal)) == len(legal)
        if self.fight is not None:
            assert self.fight.free_left >= 0
            assert not (self.fight.face_down - set(self.fight.cards()))
            self.fight_decisions += 1
        observed = self.observed
        action = super().decide(phase, legal)
        assert self.observed == observed + 1
        return action

    def observation(self, phase):
        obs = super().observation(phase)
        assert obs[O.O_LIFE] == self.life and obs[O.O_PHASE] == phase
        self.observed += 1
        return obs


class Greedy:
    """Test-only strategy: fight the hazard with the lowest value (skip the last one), use
    abilities when useful (double the best card, destroy/exchange/below the worst), draw free
    cards, end when the (estimated) total reaches the value, pay while life > 5 and 2 or
    less are missing (always against a pirate), else end; destroy the worst card after a
    loss; random elsewhere."""

    name = "greedy-test"

    def reset(self, seed, game):
        self.rng = np.random.default_rng([seed, game])

    @staticmethod
    def _fight_cards(obs):
        return [c for c in range(C.N_CARDS)
                if obs[O.ZONE + c] in (O.Z_FIGHT_LEFT, O.Z_FIGHT_RIGHT)
                and not obs[O.FLAGS + c] & O.F_FACE_DOWN]

    def _total(self, obs):
        return sum(int(C.FIGHT_VALUE[c]) * (2 if obs[O.FLAGS + c] & O.F_DOUBLED else 1)
                   for c in self._fight_cards(obs))

    def choose(self, obs, legal, n_legal):
        legal = [int(a) for a in legal[:n_legal]]
        phase = int(obs[O.O_PHASE])
        card_of = {a: int(action_name(a).split(":")[1]) for a in legal if ":" in action_name(a)}
        value = lambda a: int(C.FIGHT_VALUE[card_of[a]])           # noqa: E731
        if phase == O.PH_HAZARD:
            if 3 in legal:                                           # skip
                return 3
            step = min(int(obs[O.O_STEP]), 2)
            return min(legal, key=lambda a: C.HAZARD_VALUE[card_of[a], step])
        if phase == O.PH_FIGHT:
            total = self._total(obs)
            target = obs[O.O_FIGHT_VALUE] - (0 if obs[O.O_OPPONENT_IS_PIRATE] else
                                              3 * obs[O.O_STEP_MINUS])
            uses = [a for a in legal if A_USE <= a < A_USE + C.N_CARDS]
            if uses and (total < target or self.rng.random() < 0.3):
                return uses[int(self.rng.integers(len(uses)))]
            if A_DRAW in legal:
                return A_DRAW
            if A_END in legal and (total >= target or obs[O.O_OPPONENT_IS_PIRATE]):
                return A_END
            if A_PAY in legal and (obs[O.O_OPPONENT_IS_PIRATE]
                                   or (obs[O.O_LIFE] > 5 and target - total <= 2)):
                return A_PAY
            return A_END if A_END in legal else legal[0]
        if phase == O.PH_TARGET:
            cards = [a for a in legal if a in card_of]
            if not cards:
                return legal[0]
            if obs[O.O_PENDING_ABILITY] == C.AB_DOUBLE:
                return max(cards, key=value)
            if obs[O.O_PENDING_ABILITY] == C.AB_COPY:
                return cards[int(self.rng.integers(len(cards)))]
            return min(cards, key=value)
        if phase == O.PH_DESTROY:
            worst = min(legal[1:], key=value)
            return worst if value(worst) <= 0 else A_DONE
        if phase in (O.PH_MORE, O.PH_SORT_TAKE) and A_MORE in legal:
            return A_MORE if self.rng.random() < 0.7 else A_DONE
        if phase == O.PH_SORT_DISCARD:
            worst = min(legal[1:], key=value)
            return worst if value(worst) < 0 else A_DONE
        return legal[int(self.rng.integers(len(legal)))]


class ShortGame(CheckedGame):
    """A checked game whose hazard stack is cut to its top 2-9 cards after set-up (the rest
    are put out of the game as removed), so that yellow, red and the pirates come soon."""

    def set_up(self):
        super().set_up()
        keep = 2 + self.game_index % 8
        self.removed.extend(self.hazard_stack[:-keep])
        self.hazard_stack = self.hazard_stack[-keep:]


def run_games(policy, level, n, options=None, seed=1234, game_class=CheckedGame, deal=None):
    """Play and check n games (from ``deal``, a position, if given): their causes, the steps
    reached, the OWN_CHECKS that ran."""
    causes, steps, ran = Counter(), Counter(), set()
    for game in range(n):
        g = game_class(level, seed, game, policy, options or Options(), deal)
        g.play()
        check_conservation(g)
        assert g.fight_decisions > 0              # the fight invariants were checked
        ran |= validate_trace(g.trace, g.max_life)
        assert g.score == g.trace[-1]["score"] == g.compute_score()
        causes[g.cause] += 1
        steps[g.trace[-1]["step"]] += 1
    return causes, steps, ran


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_random_policy_conformance(level):
    """1,000 random games per level: every invariant holds before every decision and every
    trace is valid."""
    causes, steps, ran = run_games(load_policy("random"), level, 1000)
    assert sum(causes.values()) == 1000
    assert ran >= OWN_CHECKS - {"sort3"}      # a won vision card drawn again: rare in random play


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_greedy_policy_conformance_reaches_later_steps(level):
    """200 full games per level of the test strategy (most reach yellow), then 200 games
    with a short hazard stack that reach red and the pirates: same checks."""
    causes, steps, ran = run_games(Greedy(), level, 200, seed=99)
    assert steps["yellow"] + steps["red"] + steps["pirates"] > 100, steps
    causes, steps, ran_short = run_games(Greedy(), level, 200, seed=5, game_class=ShortGame)
    assert steps["pirates"] > 50, steps
    assert len(causes) >= 2, causes
    assert ran | ran_short >= OWN_CHECKS - {"sort3"}


def test_every_check_of_the_trace_validation_runs():
    """validate_trace's checks for some events only (OWN_CHECKS), sort3's included, all run
    on 20 games of the test strategy."""
    causes, steps, ran = run_games(Greedy(), 1, 20, seed=99)
    assert ran == OWN_CHECKS


@pytest.mark.parametrize("options", [Options(old_age="continue"),
                                     Options(step_minus1_stacks=False,
                                             plus1_counts_destroyed=False)])
def test_conformance_with_options(options):
    """The same checks with non-default options."""
    run_games(Greedy(), 1, 150, options=options, seed=7)
    run_games(load_policy("random"), 3, 300, options=options, seed=7)


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("extra", [[], ["--set", "63.pirate_hazard_value=35", "--option",
                                        "old_age=continue", "--option",
                                        "step_minus1_stacks=false"]])
def test_trace_header_conforms(engine, extra):
    """The header ``friday replay --format jsonl`` writes (both engines, the printed and an
    edited card table, default and other options): TRACE.md's fields and nothing else outside
    ``x``; the card table's name, hash and edits are kept there, under ``x.card_table``; the
    events after it are valid too."""
    from typer.testing import CliRunner
    from sim.cli import app
    from sim.cardtable import build
    result = CliRunner().invoke(app, ["replay", "--level", "2", "--seed", "4", "--format",
                                      "jsonl", "--engine", engine, *extra])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    head = lines[0]
    validate_header(head, engine)
    assert set(head["x"]) == {"card_table", "friday_lab"}
    from sim.provenance import __version__, engine_hash
    assert head["x"]["friday_lab"] == {"version": __version__, "engine_sha256": engine_hash()}
    table = build(sets=extra[1:2])
    assert head["x"]["card_table"] == {"table": "edited" if extra else "printed",
                                       "hash": table.hash, "changes": table.meta()["changes"]}
    validate_trace(lines[1:], lines[1]["max_life"])


@pytest.mark.parametrize("level, spec", [
    (1, {"discard": [0, 1, 2, 29], "life": 3}),
    (2, {"robinson": [5, 6], "discard": [7, 8, 19, 30], "step": 1, "hazard_discard": [31]}),
    (4, {"robinson": [], "discard": [3, 4, 5, 21, 40], "step": 2, "life": 0}),
])
def test_games_from_a_position_conform(level, spec, fast_engine):
    """Games from positions (tests/helpers.position: discards, removed cards, life, step):
    the same checks, their setup with the position's fields (POSITION_SETUP), as the deal
    gives them; the fast engine writes the same traces."""
    from helpers import position
    from sim.fast import play_fast
    fast_engine("random")
    deal = position(level, **spec)
    for policy in (Greedy(), load_policy("random")):
        assert ("setup", "step") in run_games(policy, level, 30, seed=3, deal=deal)[2]
    g = CheckedGame(level, 3, 0, load_policy("random"), Options(), deal).play()
    assert {k: g.trace[0][k] for k in POSITION_SETUP} == {k: deal[k] for k in POSITION_SETUP}
    assert play_fast(level, 3, 0, load_policy("random"), deal=deal)["trace"] == g.trace
