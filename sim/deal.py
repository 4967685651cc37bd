"""Deal files (JSON): fix the initial order of stacks and the two pirates.

    {"robinson_stack": [ids, top first], "aging_stack": [ids, top first],
     "hazard_stack": [ids, top first], "pirates": [id, id]}

Every key is optional; what a deal leaves out comes from the seed's normal set-up (R2), and
every later shuffle still comes from the seed.  ``check_deal`` alone decides whether a deal is
legal, from the deal and the level only, so that the set-up it gives is legal whatever the
seed: the Robinson and aging stacks hold the level's start and aging cards (R2.1, R2.2; from
level 2 the two come together, since the Robinson stack's aging card is the aging stack's top
card), the aging stack has its difficult cards below the normal ones (R2.1), the Robinson stack
has 18 cards (19 from level 2, the 19th a normal aging card, R2.2), the hazard stack all 30
hazards (R2.3), and the pirates are two different pirates (R2.4).

A *position* is a deal that starts mid-game: any of the keys robinson_discard, hazard_discard,
removed (cards out of the game, e.g. destroyed), life (0..max life) or step ("green", "yellow"
or "red") makes one.  It gives the three stacks (any may be empty; pirates optional, life and
step default to R2.5 and green); the R2 set-up checks give way to ``check_position``: every
card of the level (start, aging, hazard) in exactly one pile, each pile of its family (the
Robinson stack and discard: start, aging and knowledge = hazard cards; the aging stack: aging
cards, in any order; the hazard stack and discard: hazards; removed: any).

A deal (or position) may also give the orders the table's later shuffles gave, so that a game
played at a table can be followed past them: ``robinson_reshuffles``, one list per reshuffle
of the Robinson stack (R7.1), and ``hazard_reshuffles``, the hazard stack's at the start of
yellow and red (R8.1); each top first, and each may give only the cards seen, as they were
drawn (the rest lie below them in the seed's order).  Both engines play them (the fast one
through ``sim.Game``), and a shuffle that cannot have happened (a card not in the shuffled
pile) is one error line naming it.
"""
from __future__ import annotations

import reprlib
from collections import Counter
from pathlib import Path

from . import cards as C
from .errors import RuleError, UsageError
from .rules import STEP_NAMES, start_life
from .userjson import parse_json

DEAL_KEYS = ("robinson_stack", "aging_stack", "hazard_stack", "pirates")
POSITION_PILES = ("robinson_discard", "hazard_discard", "removed")
POSITION_KEYS = POSITION_PILES + ("life", "step")
# the orders later shuffles gave at the table, each top first, in the order they happened:
# the Robinson stack's (R7.1) and the hazard stack's at the start of yellow and red (R8.1)
RESHUFFLE_KEYS = ("robinson_reshuffles", "hazard_reshuffles")
DEAL_IS = 'a deal is a JSON object of card-id lists, such as {"pirates": [59, 60]}'


def _existing(text: str) -> Path | None:
    """The path ``text`` names if something is there (a file, a folder, a pipe); None for
    anything else (no such file, or text that cannot be a path, such as inline JSON)."""
    try:
        path = Path(text)
        return path if path.exists() else None
    except (OSError, ValueError):                   # a name too long, a NUL byte
        return None


def load_deal(source) -> dict:
    """A deal from a dict, a JSON string or a path (its bytes read by sim.userjson); only
    shape is checked here."""
    if isinstance(source, dict):
        deal = source
    else:
        text = str(source)
        path = _existing(text)
        if path is not None and path.is_dir():
            raise UsageError(f"deal file {text!r} is a folder: give a JSON file")
        if path is not None:                        # a file, or a pipe such as <(...)
            deal = parse_json(path.read_bytes(), f"deal file {text!r}", DEAL_IS,
                              object_of="a deal")
        elif text.lstrip().startswith("{"):       # JSON text starting so is an object or bad
            deal = parse_json(text, "the deal's JSON text", DEAL_IS, object_of="a deal")
        else:
            raise UsageError(f"deal file {text!r} not found")
    unknown = set(deal) - set(DEAL_KEYS + POSITION_KEYS + RESHUFFLE_KEYS) - {"comment", "level"}
    if unknown:
        raise UsageError(f"unknown deal keys {sorted(unknown)}: known are "
                         f"{', '.join(DEAL_KEYS + POSITION_KEYS + RESHUFFLE_KEYS)}")
    for key in [k for k in RESHUFFLE_KEYS if k in deal]:
        orders = deal[key]
        if not isinstance(orders, list) or not all(
                isinstance(o, list) and all(isinstance(c, int) and not isinstance(c, bool)
                                            for c in o) for o in orders):
            raise UsageError(f"deal {key} must be a list of card-id lists (each top first)")
    for key, value in [(k, deal[k]) for k in DEAL_KEYS + POSITION_PILES if k in deal]:
        if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool)
                                                  for c in value):
            raise UsageError(f"deal {key} must be a list of card ids")
        bad = [c for c in value if not 0 <= c < C.N_CARDS]
        if bad:
            raise RuleError(f"deal {key} has unknown card ids {reprlib.repr(bad)} (ids are "
                            f"0..{C.N_CARDS - 1})")         # reprlib: a 4,000-digit id cut short
    return deal


def check_deal(level: int, source) -> dict:
    """The deal ``source`` (as ``load_deal`` takes it) checked for ``level``: its stacks (top
    first) and pirates, the keys it gives only.  RuleError with one line if it is not legal
    (UsageError if it is no deal: not JSON, unknown keys, not lists of card ids)."""
    deal = load_deal(source)
    orders = check_reshuffles(level, deal)
    if is_position(deal):
        return {**check_position(level, deal), **orders}
    given = {key: list(deal[key]) for key in DEAL_KEYS if key in deal}
    _check_robinson_and_aging(level, given.get("robinson_stack"), given.get("aging_stack"))
    hazards, pirates = given.get("hazard_stack"), given.get("pirates")
    if hazards is not None and sorted(hazards) != list(C.HAZARD_IDS):     # R2.3: each hazard once
        twice = sorted(c for c, n in Counter(hazards).items() if n > 1)
        raise RuleError(f"deal: the hazard_stack must hold each of the 30 hazard cards "
                        f"({C.HAZARD_IDS[0]}..{C.HAZARD_IDS[-1]}) once; duplicates "
                        f"{twice}, missing {sorted(set(C.HAZARD_IDS) - set(hazards))}")
    if pirates is not None and (len(pirates) != 2 or len(set(pirates)) != 2    # R2.4
                                or not set(pirates) <= set(C.PIRATE_IDS)):
        raise RuleError(f"deal: pirates must be two different pirate ids "
                        f"({C.PIRATE_IDS[0]}..{C.PIRATE_IDS[-1]}), got {pirates}")
    return {**given, **orders}


def check_reshuffles(level: int, deal: dict) -> dict:
    """The deal's later shuffles (RESHUFFLE_KEYS), checked as far as the deal alone decides:
    each a list of cards, top first, that may stop short (the cards seen, as they came; the
    rest come from the seed); each card at most once; the Robinson stack's of the level's
    Robinson cards (start, aging, hazards won as knowledge: R7.1), the hazard stack's of
    hazards, at most two (yellow and red, R8.1).  Whether the cards were in the shuffled pile
    is known only when it is shuffled (``arrange``)."""
    robinson = set(C.START_IDS) | set(in_game_aging(level)) | set(C.HAZARD_IDS)
    allowed = {"robinson_reshuffles": (robinson, "the level's start, aging and hazard cards"),
               "hazard_reshuffles": (set(C.HAZARD_IDS), "hazard cards")}
    orders = {}
    for key in [k for k in RESHUFFLE_KEYS if k in deal]:
        for k, order in enumerate(deal[key]):
            unknown = [c for c in order if not 0 <= c < C.N_CARDS]
            if unknown:
                raise RuleError(f"deal {key}, shuffle {k + 1}: unknown card ids "
                                f"{reprlib.repr(unknown)} "
                                f"(ids are 0..{C.N_CARDS - 1})")
            twice = sorted(c for c, n in Counter(order).items() if n > 1)
            wrong = [c for c in order if c not in allowed[key][0]]
            if twice or wrong:
                raise RuleError(f"deal {key}, shuffle {k + 1}: " + (
                    f"cards {twice} appear more than once" if twice else
                    f"{wrong} ({C.NAME[wrong[0]]}...) not allowed: it holds "
                    f"{allowed[key][1]} (level {level})"))
        if key == "hazard_reshuffles" and len(deal[key]) > 2:
            raise RuleError(f"deal hazard_reshuffles gives {len(deal[key])} shuffles: the hazard "
                            f"stack is shuffled twice, at the start of yellow and red (R8.1)")
        orders[key] = [list(o) for o in deal[key]]
    return orders


def arrange(shuffled: list, forced: list, key: str, k: int, turn: int) -> list:
    """A shuffled pile (bottom first) with the cards the table's shuffle ``k`` (0-based) of
    ``key`` put on top (``forced``, top first): they go on top in that order, the others keep
    the seed's order below them.  RuleError if the pile does not hold one of them."""
    absent = [c for c in forced if c not in shuffled]
    if absent:
        raise RuleError(impossible_shuffle(key, k, absent[0], sorted(shuffled), turn))
    return [c for c in shuffled if c not in forced] + forced[::-1]


def impossible_shuffle(key: str, k: int, card: int, pile: list, turn: int) -> str:
    """The one line of a table's shuffle that cannot have happened (both engines)."""
    what = ("the Robinson stack is shuffled from the discard and the top aging card (R7.1)"
            if key == "robinson_reshuffles" else
            "the hazard stack is shuffled from the hazard discard (R8.1)")
    return (f"deal {key}, shuffle {k + 1} (turn {turn}) cannot hold card {card} "
            f"({C.NAME[card]}): {what}, here the {len(pile)} cards {pile}")


def in_game_aging(level: int) -> list[int]:
    """R2.1: the aging cards in play at a level (very stupid only at levels 3 and 4)."""
    return [c for c in C.AGING_IDS if level >= 3 or c != C.VERY_STUPID]


def _check_robinson_and_aging(level, robinson, aging):
    """R2.1, R2.2 (``None``: not given)."""
    if level >= 2 and (robinson is None) != (aging is None):
        raise RuleError(f"deal: at level {level} give robinson_stack and aging_stack together "
                        f"or neither: the Robinson stack's aging card is the top card of the "
                        f"aging stack (R2.2)")
    if robinson is not None and aging is not None:
        _check_cards(robinson + aging, set(C.START_IDS) | set(in_game_aging(level)),
                     "the Robinson and aging stacks",
                     f"the 18 start cards and the level-{level} aging cards")
    elif robinson is not None:
        _check_cards(robinson, set(C.START_IDS), "the robinson_stack", "the 18 start cards")
    elif aging is not None:
        _check_cards(aging, set(in_game_aging(level)), "the aging_stack",
                     f"the level-{level} aging cards")
    if robinson is not None:    # R2.2: the 18 start cards, from level 2 with the aging stack's
        want = 18 if level == 1 else 19      # top card, a normal one
        away = sorted(set(C.START_IDS) - set(robinson))
        if len(robinson) != want or away:
            raise RuleError(f"deal: at level {level} the robinson_stack holds the 18 start cards"
                            f"{'' if level == 1 else ' and one aging card'} ({want} cards), got "
                            f"{len(robinson)}" + (f" without start cards {away}" if away else ""))
        difficult = [c for c in robinson if c in C.AGING_DIFFICULT_IDS]
        if difficult:
            raise RuleError(f"deal: the robinson_stack's aging card {difficult[0]} "
                            f"({C.NAME[difficult[0]]}) is a difficult one, but R2.2 takes the "
                            f"top card of the aging stack, always a normal one (R2.1)")
    if aging is not None:       # R2.1: the difficult aging cards lie below every normal one
        normal_at = [i for i, c in enumerate(aging) if c in C.AGING_NORMAL_IDS]
        above = [c for c in aging[:max(normal_at, default=-1)] if c in C.AGING_DIFFICULT_IDS]
        if above:
            raise RuleError(f"deal: the aging_stack breaks R2.1: the difficult aging cards "
                            f"{list(C.AGING_DIFFICULT_IDS)} go below every normal one, but "
                            f"{above} are above normal cards")


def _check_cards(cards, expected: set, where: str, what: str):
    """Each expected card exactly once."""
    twice = sorted(c for c, n in Counter(cards).items() if n > 1)
    if twice:
        raise RuleError(f"deal: cards {twice} appear more than once in {where}")
    if set(cards) != expected:
        missing, extra = sorted(expected - set(cards)), sorted(set(cards) - expected)
        raise RuleError(f"deal: {where} must hold {what}; missing {missing}, not allowed {extra}")


def check_position(level: int, deal: dict) -> dict:
    """A position (module docstring), complete: every pile as a list (top first), pirates only
    if given, ``life`` an int and ``step`` a step name.  RuleError with one line if not legal."""
    missing = [k for k in ("robinson_stack", "aging_stack", "hazard_stack") if k not in deal]
    if missing:
        raise RuleError(f"position: give the stacks {missing} too (any may be empty)")
    given = {key: list(deal.get(key, ())) for key in DEAL_KEYS[:3] + POSITION_PILES}
    start, aging, hazards = set(C.START_IDS), set(in_game_aging(level)), set(C.HAZARD_IDS)
    every = start | aging | hazards
    families = {"robinson_stack": every, "robinson_discard": every, "aging_stack": aging,
                "hazard_stack": hazards, "hazard_discard": hazards, "removed": every}
    where: dict[int, list[str]] = {}
    for key, cards in given.items():
        for c in cards:
            where.setdefault(c, []).append(key)
        wrong = [c for c in cards if c not in families[key]]
        if wrong:
            raise RuleError(f"position: {key} holds {wrong} ({C.NAME[wrong[0]]}...), not "
                            f"allowed there at level {level}")
    twice = {c: w for c, w in where.items() if len(w) > 1}
    if twice:
        raise RuleError(f"position: cards in more than one place: {twice}")
    away = sorted(every - set(where))
    if away:
        raise RuleError(f"position: cards {away} are in no pile (every card of the level is in "
                        f"exactly one; put cards out of the game in removed)")
    if "pirates" in deal:
        given["pirates"] = check_deal(level, {"pirates": deal["pirates"]})["pirates"]
    life, max_life = start_life(level)
    life = deal.get("life", life)
    if isinstance(life, bool) or not isinstance(life, int) or not 0 <= life <= max_life:
        raise RuleError(f"position: life must be 0..{max_life} at level {level} (R2.5, R4.10: "
                        f"0 is a life the game goes on with), got {reprlib.repr(life)}")
    step = deal.get("step", STEP_NAMES[0])
    if step not in STEP_NAMES[:3]:
        raise RuleError(f"position: step must be one of {list(STEP_NAMES[:3])}, "
                        f"got {reprlib.repr(step)}")
    given["life"], given["step"] = life, step
    return given


def is_position(deal: dict) -> bool:
    """Whether a deal starts mid-game (module docstring): its game's setup event names the
    discards, removed cards and step too (docs/TRACE.md, its extension)."""
    return bool(set(POSITION_KEYS) & set(deal))


def shuffles_after_the_first(deal: dict) -> bool:
    """Whether the deal gives some stack more than one table shuffle (RESHUFFLE_KEYS): one
    call of the fast engine plays only the first of each; sim.Game feeds it the others."""
    return any(len(deal.get(key, ())) > 1 for key in RESHUFFLE_KEYS)


def unused_shuffles(given: dict, done: dict) -> str | None:
    """The line for a deal that gives more table shuffles than the game had; None if not."""
    over = [f"{len(given[k])} {k} but the game had {done[k]}" for k in given
            if len(given[k]) > done[k]]
    return f"deal: it gives {' and '.join(over)}" if over else None
