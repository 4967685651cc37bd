"""The action space: every decision of the game is one integer action
(docs/reference/vocabulary.md).

Fixed ids (shared by both engines and every policy):

=================  ====================================================================
id                 name and meaning
=================  ====================================================================
0  ``end``         end the fight now (R4.6; against a pirate only when the total reaches
                   the value, R9.3)
1  ``draw``        draw a free card to the left (R4.2)
2  ``pay``         pay life for a card to the right (R4.3; 2 life against the
                   extra_card_costs_2 pirate); stops free drawing by choice
3  ``skip``        discard the last hazard of a step without a fight (R3.2)
4  ``done``        decline / finish: no second draw_plus2 card, no second exchange2,
                   no below_pile replacement, stop taking sort3 cards, discard none of the
                   sort3 cards, stop destroying after a loss (R4.8)
5  ``more``        continue: the second draw_plus2 card (R5.2), the next sort3 card (R5.6),
                   the below_pile replacement (R5.9)
6 + c              ``fight:<c>``   fight hazard c (R3.1/R3.2)
6 + 69 + c         ``pirate:<c>``  fight pirate c first (R9.1)
6 + 2*69 + c       ``use:<c>``     use the ability of fight card c (R4.5, R5)
6 + 3*69 + c       ``target:<c>``  target of the ability being used: the card to destroy,
                   double, exchange, put below the pile, or (for copy) the card whose
                   ability is copied, then that ability's own target (R5.3-R5.9)
6 + 4*69 + c       ``destroy:<c>`` remove fight card c with the destroy budget (R4.8)
6 + 5*69 + c       ``discard:<c>`` put sort3 card c on the robinson_discard (R5.6)
6 + 6*69 + c       ``put:<c>``     put sort3 card c back as the next card from the top
=================  ====================================================================

An ability with a target is thus two decisions: ``use:<card>`` then ``target:<card>``
(copy: ``use:<copy>``, ``target:<copied card>``, then ``target:<its target>`` if the copied
ability needs one).  ``use`` is offered only when the whole ability can be carried out: a
target exists, and a card can be drawn for draw/below_pile abilities (R7.3).  life_plus1/2
are offered even at full life (they then gain nothing, R5.1).
"""
from __future__ import annotations

from .cards import N_CARDS
from .errors import RuleError, UsageError

A_END, A_DRAW, A_PAY, A_SKIP, A_DONE, A_MORE = range(6)
SIMPLE_NAMES = ("end", "draw", "pay", "skip", "done", "more")
FAMILIES = ("fight", "pirate", "use", "target", "destroy", "discard", "put")
FAMILY_BASE = {name: len(SIMPLE_NAMES) + i * N_CARDS for i, name in enumerate(FAMILIES)}
A_FIGHT, A_PIRATE, A_USE, A_TARGET, A_DESTROY, A_DISCARD, A_PUT = (FAMILY_BASE[f]
                                                                   for f in FAMILIES)
N_ACTIONS = len(SIMPLE_NAMES) + len(FAMILIES) * N_CARDS


def action_name(action: int) -> str:
    """Stable textual name of an action id, e.g. 12 -> 'fight:6'."""
    action = int(action)
    if 0 <= action < len(SIMPLE_NAMES):
        return SIMPLE_NAMES[action]
    if len(SIMPLE_NAMES) <= action < N_ACTIONS:
        family, card = divmod(action - len(SIMPLE_NAMES), N_CARDS)
        return f"{FAMILIES[family]}:{card}"
    raise RuleError(f"action id {action} is outside the action space 0..{N_ACTIONS - 1}")


def shown_action(action: int) -> str:
    """An action as a message shows it: its quoted name, or the id outside the action space
    (a policy's mistake, never a RuleError of its own)."""
    try:
        return repr(action_name(action))
    except RuleError:
        return f"action id {int(action)} (outside the action space)"


def action_id(name: str) -> int:
    """Inverse of action_name; a clear error for anything else."""
    name = str(name).strip()
    if name in SIMPLE_NAMES:
        return SIMPLE_NAMES.index(name)
    family, sep, card = name.partition(":")
    if sep and family in FAMILY_BASE and card.isdigit() and int(card) < N_CARDS:
        return FAMILY_BASE[family] + int(card)
    raise UsageError(f"unknown action {name!r}: expected one of {', '.join(SIMPLE_NAMES)} "
                     f"or FAMILY:CARD with FAMILY in {', '.join(FAMILIES)} and "
                     f"CARD 0..{N_CARDS - 1}")
