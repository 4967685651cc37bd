"""Deal files (JSON): fix the initial order of stacks and the two pirates.

    {"robinson_stack": [ids, top first], "aging_stack": [ids, top first],
     "hazard_stack": [ids, top first], "pirates": [id, id]}

Every key is optional; what a deal leaves out comes from the seed's normal set-up (R2), and
every later shuffle still comes from the seed.  After the deal is applied the whole set-up is
checked: the Robinson and aging stacks together hold exactly the level's start and aging cards
(R2.1, R2.2), the aging stack has its difficult cards below the normal ones (R2.1), the Robinson
stack has 18 cards (19 from level 2), the hazard stack all 30 hazards, and the pirates are two
different pirates.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from . import cards as C
from .rules import RuleError

DEAL_KEYS = ("robinson_stack", "aging_stack", "hazard_stack", "pirates")


def load_deal(source) -> dict:
    """A deal from a dict, a JSON string or a path; only shape is checked here."""
    if isinstance(source, dict):
        deal = source
    else:
        text = str(source)
        if not text.lstrip().startswith("{"):
            path = Path(text)
            if not path.is_file():
                raise RuleError(f"deal file {text!r} not found")
            text = path.read_text(encoding="utf-8")
        try:
            deal = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RuleError(f"deal is not valid JSON: {exc}") from None
    if not isinstance(deal, dict):
        raise RuleError("a deal must be a JSON object")
    unknown = set(deal) - set(DEAL_KEYS) - {"comment", "level"}
    if unknown:
        raise RuleError(f"unknown deal keys {sorted(unknown)}: known are {', '.join(DEAL_KEYS)}")
    for key in DEAL_KEYS:
        if key in deal:
            value = deal[key]
            if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool)
                                                      for c in value):
                raise RuleError(f"deal {key} must be a list of card ids")
            bad = [c for c in value if not 0 <= c < C.N_CARDS]
            if bad:
                raise RuleError(f"deal {key} has unknown card ids {bad} (ids are 0..{C.N_CARDS - 1})")
    return deal


def apply_deal(game, deal: dict):
    """Override the set-up zones of a reference Game (stacks given top first)."""
    deal = load_deal(deal)
    if "robinson_stack" in deal:
        game.robinson_stack = list(reversed(deal["robinson_stack"]))
    if "aging_stack" in deal:
        game.aging_stack = list(reversed(deal["aging_stack"]))
    if "hazard_stack" in deal:
        game.hazard_stack = list(reversed(deal["hazard_stack"]))
    if "pirates" in deal:
        game.pirates = list(deal["pirates"])
    check_setup(game.level, game.robinson_stack, game.aging_stack, game.hazard_stack, game.pirates)


def check_setup(level, robinson, aging, hazards, pirates):
    """Raise RuleError unless the zones are a legal set-up for the level (R2)."""
    def dupes(cards):
        return sorted(c for c, n in Counter(cards).items() if n > 1)

    both = list(robinson) + list(aging)
    if dupes(both):
        raise RuleError(f"deal: cards {dupes(both)} appear more than once in the Robinson and "
                        f"aging stacks")
    in_game_aging = [c for c in C.AGING_IDS if level >= 3 or c != C.VERY_STUPID]
    expected = set(C.START_IDS) | set(in_game_aging)
    if set(both) != expected:
        missing, extra = sorted(expected - set(both)), sorted(set(both) - expected)
        raise RuleError(f"deal: the Robinson and aging stacks must hold the 18 start cards and "
                        f"the level-{level} aging cards; missing {missing}, not allowed {extra}")
    want = 18 if level == 1 else 19
    if len(robinson) != want or not set(C.START_IDS) <= set(robinson):
        raise RuleError(f"deal: at level {level} the robinson_stack holds the 18 start cards"
                        f"{'' if level == 1 else ' and one aging card'} ({want} cards), "
                        f"got {len(robinson)}")
    top_first = list(reversed(aging))
    normal_at = [i for i, c in enumerate(top_first) if c in C.AGING_NORMAL_IDS]
    above = [c for c in top_first[:max(normal_at, default=-1)] if c in C.AGING_DIFFICULT_IDS]
    if above:
        raise RuleError(f"deal: the aging_stack breaks R2.1: the difficult aging cards "
                        f"{list(C.AGING_DIFFICULT_IDS)} go below every normal one, but {above} "
                        f"are above normal cards")
    if sorted(hazards) != list(C.HAZARD_IDS):
        raise RuleError(f"deal: the hazard_stack must hold each of the 30 hazard cards "
                        f"({C.HAZARD_IDS[0]}..{C.HAZARD_IDS[-1]}) once; duplicates "
                        f"{dupes(hazards)}, missing {sorted(set(C.HAZARD_IDS) - set(hazards))}")
    if len(pirates) != 2 or len(set(pirates)) != 2 or not set(pirates) <= set(C.PIRATE_IDS):
        raise RuleError(f"deal: pirates must be two different pirate ids "
                        f"({C.PIRATE_IDS[0]}..{C.PIRATE_IDS[-1]}), got {pirates}")
