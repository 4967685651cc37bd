"""Decoding the fast engine's int64 event buffer into TRACE.md event dicts (the reference's)."""
from __future__ import annotations

from sim.cards import ABILITY_NAMES, AB_LIFE1, AB_LIFE2, AB_SORT3
from sim.deal import POSITION_PILES
from sim.rules import CAUSE_NAMES, STEP_NAMES
from .layout import (ABILITY_EV_W, EV_ABILITY, EV_DRAW, EV_FIGHT_END, EV_FIGHT_START,
                     EV_GAME_END, EV_HAZ_CHOICE, EV_HAZ_DRAWN, EV_LIFE, EV_PIRATE_CHOICE,
                     EV_RESHUFFLE, EV_SETUP, EV_STEP, LIFE_REASON_NAMES, REASON_NAMES)


def _none(x: int):
    return None if x < 0 else x


def _position(E, p: int, setup: dict, pile) -> int:
    """A position's setup fields (sim.fast.game._position_event) into ``setup``; the next
    position in E."""
    for key in POSITION_PILES:
        setup[key], p = pile(p)
    setup["step"] = STEP_NAMES[E[p]]
    return p + 1


def decode_events(E, n: int) -> list[dict]:
    E = [int(x) for x in E[:n]]
    out = []
    p = 0

    def pile(p):
        k = E[p]
        return E[p + 1:p + 1 + k], p + 1 + k

    while p < n:
        code = E[p]
        if code == EV_SETUP:
            r, q = pile(p + 1)
            h, q = pile(q)
            a, q = pile(q)
            out.append({"e": "setup", "robinson_stack": r, "hazard_stack": h, "aging_stack": a,
                        "pirates": [E[q], E[q + 1]], "life": E[q + 2], "max_life": E[q + 3]})
            p = q + 5
            if E[q + 4]:                  # a position (sim.deal): TRACE.md's extension
                p = _position(E, p, out[-1], pile)
        elif code == EV_STEP:
            h, q = pile(p + 2)
            out.append({"e": "step", "step": STEP_NAMES[E[p + 1]], "hazard_stack": h})
            p = q
        elif code == EV_HAZ_DRAWN:
            cards, p = pile(p + 1)
            out.append({"e": "hazards_drawn", "cards": cards})
        elif code == EV_HAZ_CHOICE:
            d, q = pile(p + 2)
            out.append({"e": "hazard_choice", "fight": _none(E[p + 1]), "discarded": d})
            p = q
        elif code == EV_PIRATE_CHOICE:
            out.append({"e": "pirate_choice", "fight": E[p + 1]})
            p += 2
        elif code == EV_FIGHT_START:
            out.append({"e": "fight_start", "opponent": E[p + 1],
                        "kind": "pirate" if E[p + 2] else "hazard", "free_cards": E[p + 3],
                        "value": E[p + 4]})
            p += 5
        elif code == EV_DRAW:
            out.append({"e": "draw", "card": E[p + 1], "side": "right" if E[p + 2] else "left",
                        "cost": E[p + 3], "reason": REASON_NAMES[E[p + 4]]})
            p += 5
        elif code == EV_RESHUFFLE:
            r, q = pile(p + 2)
            out.append({"e": "reshuffle", "aging_added": _none(E[p + 1]), "robinson_stack": r})
            p = q
        elif code == EV_ABILITY:
            ab = E[p + 2]
            if ab == AB_SORT3:
                ns, no = E[p + 6], E[p + 11]
                detail = {"seen": E[p + 7:p + 7 + ns], "discarded": _none(E[p + 10]),
                          "order": E[p + 12:p + 12 + no]}
            elif ab in (AB_LIFE1, AB_LIFE2):
                detail = {"gained": E[p + 5]}
            else:
                detail = {}
            out.append({"e": "ability", "card": E[p + 1], "ability": ABILITY_NAMES[ab],
                        "target": _none(E[p + 3]), "via_copy": _none(E[p + 4]),
                        "detail": detail})
            p += ABILITY_EV_W
        elif code == EV_LIFE:
            out.append({"e": "life", "delta": E[p + 1], "life": E[p + 2],
                        "reason": LIFE_REASON_NAMES[E[p + 3]]})
            p += 5
        elif code == EV_FIGHT_END:
            d, q = pile(p + 5)
            r, q = pile(q)
            out.append({"e": "fight_end", "total": E[p + 1], "value": E[p + 2],
                        "won": bool(E[p + 3]), "life_paid": E[p + 4], "destroyed": d,
                        "removed": r})
            p = q
        elif code == EV_GAME_END:
            out.append({"e": "game_end", "won": bool(E[p + 1]), "cause": CAUSE_NAMES[E[p + 2]],
                        "life": E[p + 3], "score": E[p + 4], "step": STEP_NAMES[E[p + 5]]})
            p += 6
        else:
            raise ValueError(f"corrupt fast-engine trace buffer at {p}: code {code}")
    return out
