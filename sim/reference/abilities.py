"""Abilities of start and knowledge cards (R4.5, R5) for the reference engine.

``ability_usable`` says whether ``use:<card>`` is legal (the whole ability can be carried out);
``use_ability`` carries it out, asking the policy for targets and choices.  Each ability is one
small function ``_ability(game, actor, source, via_copy)``: ``actor`` is the card that uses it
(the copy card for a copy, R5.5), ``source`` the card whose ability it is.
"""
from __future__ import annotations

from contextlib import contextmanager

from .. import cards as C
from .. import observation as O
from ..actions import A_DISCARD, A_DONE, A_MORE, A_PUT, A_TARGET

COPYABLE = {C.AB_LIFE1, C.AB_LIFE2, C.AB_DRAW1, C.AB_DRAW2, C.AB_DESTROY, C.AB_DOUBLE,
            C.AB_SORT3, C.AB_STEP_MINUS1, C.AB_EXCHANGE1, C.AB_EXCHANGE2, C.AB_BELOW_PILE}


def _others(game, actor: int) -> list[int]:
    """Face-up fight cards other than the actor (R4.5: never its own card)."""
    return [c for c in game.fight.face_up() if c != actor]


def targets_for(game, ability: int, actor: int) -> list[int] | None:
    """Cards the ability may target, or None for an ability without a target."""
    f = game.fight
    if ability in (C.AB_DESTROY, C.AB_EXCHANGE1, C.AB_EXCHANGE2, C.AB_BELOW_PILE):
        return _others(game, actor)
    if ability == C.AB_DOUBLE:                                              # R5.4
        return [c for c in _others(game, actor) if c not in f.doubled]
    if ability == C.AB_COPY:                                                # R5.5
        return [c for c in _others(game, actor)
                if game.cards.ABILITY[c] in COPYABLE and available(game, int(game.cards.ABILITY[c]), actor)]
    return None


def available(game, ability: int, actor: int) -> bool:
    """The ability can be carried out now by ``actor``."""
    if ability in (C.AB_DRAW1, C.AB_DRAW2, C.AB_BELOW_PILE) and not game.can_draw():
        return False                                                        # R7.3, R5.9
    targets = targets_for(game, ability, actor)
    return targets is None or len(targets) > 0


def ability_usable(game, card: int) -> bool:
    """R4.5: a face-up card's own (non-aging) ability, unused this fight, that can act."""
    f, ability = game.fight, int(game.cards.ABILITY[card])
    if ability == C.AB_NONE or ability >= C.FIRST_AGING_ABILITY or card in f.used | f.face_down:
        return False
    return available(game, ability, card)


def use_ability(game, card: int):
    """``use:<card>``: carry out the card's ability (a copy first picks what to copy)."""
    game.fight.used.add(card)
    ability = int(game.cards.ABILITY[card])
    if ability == C.AB_COPY:
        with _pending(game, card, ability):
            source = _choose_target(game, targets_for(game, ability, card))
        _perform(game, int(game.cards.ABILITY[source]), card, source, card)
    else:
        _perform(game, ability, card, card, None)


@contextmanager
def _pending(game, card, ability):
    """Marks the ability being carried out in the observation (pending_card/ability)."""
    saved = (game.pending_card, game.pending_ability)
    game.pending_card, game.pending_ability = card, ability
    try:
        yield
    finally:
        game.pending_card, game.pending_ability = saved


def _choose_target(game, targets: list[int], optional: bool = False) -> int | None:
    legal = [A_TARGET + c for c in targets] + ([A_DONE] if optional else [])
    action = game.decide(O.PH_TARGET, legal)
    return None if action == A_DONE else action - A_TARGET


def _more(game) -> bool:
    """A 'more'/'done' decision (second draw, replacement, next sort3 card)."""
    return game.decide(O.PH_MORE, [A_DONE, A_MORE]) == A_MORE


def _event(game, ability, source, via_copy, target=None, detail=None):
    game.emit("ability", card=source, ability=C.ABILITY_NAMES[ability], target=target,
                     via_copy=via_copy, detail=detail if detail is not None else {})


def _perform(game, ability: int, actor: int, source: int, via_copy: int | None):
    with _pending(game, actor, ability):
        PERFORM[ability](game, ability, actor, source, via_copy)


def _life(game, ability, actor, source, via_copy):
    """R5.1: +1 / +2 life from the reserve, up to max_life."""
    gained = game.gain_life(1 if ability == C.AB_LIFE1 else 2)
    _event(game, ability, source, via_copy, detail={"gained": gained})
    if gained:
        game.emit("life", delta=gained, life=game.life, reason="ability")


def _draw(game, ability, actor, source, via_copy):
    """R5.2: draw 1, or up to 2 (the second may be declined after seeing the first)."""
    _event(game, ability, source, via_copy)
    game.draw_into_fight("right", "ability")
    if ability == C.AB_DRAW2 and game.can_draw() and _more(game):
        game.draw_into_fight("right", "ability")


def _destroy_or_double(game, ability, actor, source, via_copy):
    """R5.3 destroy: turn another face-up card face down (0, no ability, removed at the end).
    R5.4 double: another face-up card counts twice (at most once per card)."""
    target = _choose_target(game, targets_for(game, ability, actor))
    _event(game, ability, source, via_copy, target)
    (game.fight.face_down if ability == C.AB_DESTROY else game.fight.doubled).add(target)


def _step_minus1(game, ability, actor, source, via_copy):
    """R5.7: lower the hazard's step at the comparison."""
    _event(game, ability, source, via_copy)
    game.fight.step_minus += 1


def _leave_fight(game, card: int) -> tuple[list[int], int]:
    """Take a card out of the fight; returns its row and index (R5.8, R5.9)."""
    f = game.fight
    row = f.left if card in f.left else f.right
    index = row.index(card)
    row.pop(index)
    f.doubled.discard(card)
    return row, index


def _exchange(game, ability, actor, source, via_copy):
    """R5.8: put another face-up card on the discard and draw a replacement in its place."""
    for k in range(1 if ability == C.AB_EXCHANGE1 else 2):
        target = _choose_target(game, targets_for(game, ability, actor), optional=k > 0)
        if target is None:
            return
        _event(game, ability, source, via_copy, target)
        row, index = _leave_fight(game, target)
        game.robinson_discard.append(target)
        side = "left" if row is game.fight.left else "right"
        game.draw_into_fight(side, "exchange", index=index)


def _below_pile(game, ability, actor, source, via_copy):
    """R5.9: another face-up card goes face down under the stack (reshuffle first if empty);
    a left card may be replaced by a free card drawn to the left."""
    target = _choose_target(game, targets_for(game, ability, actor))
    _event(game, ability, source, via_copy, target)
    # R5.9/R7: the stack must hold a card first.  Reshuffle *before* the target leaves the
    # fight: it is not in the discard either way, so the shuffle and the trace are the same,
    # but a loss by old age (R7.2) here now leaves the target in the fight, still Robinson's
    # card for the score (R10.3), instead of in no zone at all.
    if not game.robinson_stack:
        game.reshuffle()
    row, index = _leave_fight(game, target)
    game.robinson_stack.insert(0, target)
    if row is game.fight.left and _more(game):
        game.draw_into_fight("left", "replace", index=index)


def _sort3(game, ability, actor, source, via_copy):
    """R5.6: look at up to 3 top cards one by one, discard at most 1, put the rest back on
    top in the chosen order.  The event is written first and completed as choices are made."""
    detail = {"seen": [], "discarded": None, "order": []}
    _event(game, ability, source, via_copy, detail=detail)
    hand = game.sort_hand
    while len(hand) < 3 and game.can_draw() and game.decide(O.PH_SORT_TAKE, [A_DONE, A_MORE]) == A_MORE:
        hand.append(game.take_top())
        detail["seen"].append(hand[-1])
    if hand:
        action = game.decide(O.PH_SORT_DISCARD, [A_DONE] + [A_DISCARD + c for c in hand])
        if action != A_DONE:
            detail["discarded"] = action - A_DISCARD
            hand.remove(detail["discarded"])
            game.robinson_discard.append(detail["discarded"])
    # every card stays in the hand (observation zone sort3_hand) until the whole order is
    # chosen; then all go on top of the stack together
    order = []
    while len(order) < len(hand):
        rest = [c for c in hand if c not in order]
        card = rest[0] if len(rest) == 1 else \
            game.decide(O.PH_SORT_ORDER, [A_PUT + c for c in rest]) - A_PUT
        order.append(card)
    hand.clear()
    detail["order"] = order
    game.robinson_stack.extend(reversed(order))
    game.known_top = order + game.known_top


PERFORM = {
    C.AB_LIFE1: _life, C.AB_LIFE2: _life, C.AB_DRAW1: _draw, C.AB_DRAW2: _draw,
    C.AB_DESTROY: _destroy_or_double, C.AB_DOUBLE: _destroy_or_double,
    C.AB_STEP_MINUS1: _step_minus1,
    C.AB_EXCHANGE1: _exchange, C.AB_EXCHANGE2: _exchange, C.AB_BELOW_PILE: _below_pile,
    C.AB_SORT3: _sort3,
}
