"""A game log a player reads: TRACE.md events -> lines of text (``friday replay``, ``friday play``).

Pure functions of the trace alone (both engines write the same one): ``render_lines`` gives the
lines as spans ``(text, style)`` (styles are rich style strings, ignored in plain text),
``render_text`` the plain text and ``render_rich`` a rich ``Text`` for a terminal.  Cards go by
their names from the header's card table (``#id`` only with ``ids=True``); the order of a
face-down stack is never printed (R1.4), only counts and what the player itself saw.  A small
bookkeeper follows the game from the events: life, step, the Robinson stack's count, and
Robinson's cards for the R10.3 score breakdown.  Arithmetic stays with the engines: the fight's
total (R4.6) and the value it is compared with (R5.7) are printed where the trace writes them,
at ``fight_end``.
"""
from __future__ import annotations

from ..errors import UsageError
from ..names import ABILITY_WORDS, CardNames, count, signed
from ..rules import STEP_NAMES, options_text

STEP_STYLE = ("bold green", "bold yellow", "bold red", "bold magenta")
LIFE_REASON = {"paid_draw": "paid card", "lost_fight": "lost fight", "aging": "aging card",
               "ability": "ability"}
DRAW_REASON = {"free": "free card", "paid": "paid card", "ability": "drawn by the ability",
               "exchange": "in its place", "replace": "replacement, free"}
CAUSES = {
    "no_life": "Robinson has no life left to pay",
    "old_age": "Robinson dies of old age (his stack is empty and no aging card is left, R7.2)",
    "no_cards": "Robinson has no card left to draw against the pirate (R9.4)"}
ABILITY_SAYS = {   # (what the ability does, style) of the abilities that only say so
    "draw_plus1": ("draws 1 more card", ""), "draw_plus2": ("draws up to 2 more cards", ""),
    "aging_stop": ("drawn as a free card, it stops the free cards of this fight", "red")}


class _Log:
    """Follows the events and writes the lines (see the module docstring).  An
    ``on_<event>`` handler that writes the next event, a life change, into its own line
    returns True, and that event is not handled again."""

    def __init__(self, events, ids: bool):
        self.events = self.checked(events)
        head = next((e for e in self.events if e["e"] == "header"), None)
        if head is None:
            from ..cards import header_table
            head = {"cards": header_table(), "options": {}}
        self.names = CardNames(head["cards"], ids)
        self.lines: list[list[tuple[str, str]]] = []
        self.life = self.max_life = self.turn = self.stack_n = self.hazards_left = self.step = 0
        self.owned: set[int] = set()      # Robinson's cards, not removed (R10.3)
        self.won_hazards = 0
        self.pirates_beaten: list[int] = []
        self.fight: dict | None = None     # the fight_start event, and "face_down": destroyed
        self.ended = None                  # the current fight's fight_end event, once written
        self.pending_sort = None  # (cards still to take, cards put back) across a reshuffle
        self.n_hazards = sum(1 for row in self.names.table.values() if row["kind"] == "hazard")
        self.disagreements: list[str] = []  # bookkeeping vs the trace (tests keep it empty)
        self.end = None

    @classmethod
    def checked(cls, events) -> list:
        """The events as a list, each a TRACE.md event (a dict whose ``e`` names one, a
        header with its card table), else UsageError."""
        if isinstance(events, (str, bytes, dict)) or not hasattr(events, "__iter__"):
            raise UsageError(f"events must be a list of TRACE.md events (dicts), not "
                             f"{type(events).__name__}", "events")
        events = list(events)
        for k, ev in enumerate(events):
            kind = ev.get("e") if isinstance(ev, dict) else None
            if not isinstance(kind, str) or not hasattr(cls, "on_" + kind) or (
                    kind == "header" and "cards" not in ev):
                raise UsageError(f"events: event {k} is not a TRACE.md event: {ev!r:.60}",
                                 "events")
        return events

    # --- output ------------------------------------------------------------------------
    def line(self, *spans, gap: bool = False):
        """One line of spans, each a text or (text, rich style); ``gap``: a blank line first."""
        if gap:
            self.lines.append([("", "")])
        self.lines.append([sp if isinstance(sp, tuple) else (sp, "") for sp in spans])

    def take_life(self, nxt, *reasons) -> bool:
        """Whether the next event is the life change (for one of ``reasons``) that this event's
        line tells; if so, the life is now the changed one."""
        merged = nxt is not None and nxt["e"] == "life" and nxt["reason"] in reasons
        if merged:
            self.life = nxt["life"]
        return merged

    # --- the events --------------------------------------------------------------------
    def run(self, cut_note: bool = True):
        i, events = 0, self.events
        self.before: list[int] = []     # lines written before event i (render_marked)
        while i < len(events):
            self.before += [len(self.lines)] * (i + 1 - len(self.before))
            ev, nxt = events[i], events[i + 1] if i + 1 < len(events) else None
            if self.ended is not None and ev["e"] not in ("life", "ability", "game_end"):
                self.settle(True)
            self.prev = events[i - 1] if i else None
            i += 2 if getattr(self, "on_" + ev["e"])(ev, nxt) else 1
        self.before += [len(self.lines)] * (len(events) + 1 - len(self.before))
        if cut_note and self.end is None and len(events) > 1:
            self.line(("The trace ends here, before the end of the game.", "bold"), gap=True)
        return self.lines

    def on_header(self, ev, nxt):
        self.line((f"Friday, level {ev['level']}, seed {ev['seed']}, game {ev['game']}, "
                   f"policy {ev['policy']}", "bold"))
        self.line(f"Rule options: {options_text(ev['options'])}")

    def on_setup(self, ev, nxt):
        n = self.names
        self.life, self.max_life = ev["life"], ev["max_life"]
        self.owned = set(ev["robinson_stack"]) | set(ev.get("robinson_discard", ()))  # a position's
        self.n_hazards = len(ev["hazard_stack"]) + len(ev.get("hazard_discard", ()))  # (TRACE.md)
        self.stack_n = len(ev["robinson_stack"])
        aging = sum(n.is_aging(c) for c in ev["robinson_stack"])
        self.line(f"Set-up: life {self.life} of {self.max_life}. Robinson's stack: {self.stack_n} "
                  f"cards" + (f" ({aging} of them aging)" if aging else "") +
                  f"; aging stack: {len(ev['aging_stack'])} cards.")
        self.line("Pirates: " + "; ".join(f"{n.pirate(p)}: {n.pirate_rules(p)}"
                                          for p in ev["pirates"]) + ".")

    def on_step(self, ev, nxt):
        self.step = STEP_NAMES.index(ev["step"])
        self.hazards_left = len(ev["hazard_stack"])
        text = (f"{ev['step'].upper()} step: {self.hazards_left} hazards"
                if ev["step"] != "pirates" else "PIRATES: Robinson must beat both pirates")
        if ev["step"] in ("yellow", "red"):
            text += " (the hazard discard, shuffled)"
        self.line((f"== {text} ==", STEP_STYLE[self.step]), gap=True)

    def on_hazards_drawn(self, ev, nxt):
        n = self.names
        self.turn += 1
        self.hazards_left -= len(ev["cards"])
        self.line((f"Turn {self.turn}", "bold"), f" - {STEP_NAMES[self.step]} step, "
                  f"life {self.life}, Robinson's stack {self.stack_n}, "
                  f"hazards left {self.hazards_left}", gap=True)
        drawn = [f"{n.hazard(c)} (value {n.hazard_value(c, self.step)}, "
                 f"{count(n.table[c]['hazard']['free'], 'free card')})" for c in ev["cards"]]
        self.line("  " + ("Hazards: " + " and ".join(drawn) if len(drawn) == 2
                          else f"The step's last hazard: {drawn[0]}"))

    def on_hazard_choice(self, ev, nxt):
        n = self.names
        if ev["fight"] is None:
            self.line(f"  Skips {n.hazard(ev['discarded'][0])}: discarded without a fight.")
            return
        rest = f" Discards {n.listing(ev['discarded'], n.hazard)}." if ev["discarded"] else ""
        if nxt is None:                               # a trace cut right after the choice
            return self.line(f"  Fights {n.hazard(ev['fight'])}.{rest}")
        self.line(("  Fights ", ""), (n.hazard(ev["fight"]), "bold"),
                  f" (hazard side: value {nxt['value']}, {count(nxt['free_cards'], 'free card')}; "
                  f"beaten, it becomes the knowledge card {n.card(ev['fight'])}).{rest}")

    def on_pirate_choice(self, ev, nxt):
        if nxt is None:                               # a trace cut right after the choice
            return self.line(f"Fights {self.names.pirate(ev['fight'])}.", gap=True)
        self.line(("Fights ", ""), (self.names.pirate(ev["fight"]), "bold magenta"),
                  f": value {nxt['value']}, {count(nxt['free_cards'], 'free card')}, "
                  f"life {self.life}.", gap=True)

    def on_fight_start(self, ev, nxt):
        """Written with the choice before it (the trace always has one)."""
        self.fight = {**ev, "face_down": set()}
        self.ended = None

    def on_draw(self, ev, nxt):
        card, merged = ev["card"], self.take_life(nxt, "paid_draw")
        self.stack_n -= 1
        text = f"    {DRAW_REASON[ev['reason']]}: {self.names.card(card)}"
        if ev["cost"]:
            text += f", {ev['cost']} life" + (f" (life {self.life})" if merged else "")
        self.line((text, "red" if self.names.value(card) < 0 else ""))
        return merged

    def on_reshuffle(self, ev, nxt):
        new, aging = len(ev["robinson_stack"]), ev["aging_added"]
        after_below = (self.prev or {}).get("ability") == "below_pile"     # an ability event
        if self.stack_n != 0 and not after_below and self.pending_sort is None:
            self.disagreements.append(f"reshuffle with {self.stack_n} cards counted in the stack")
        self.stack_n = new + (1 if after_below else 0)
        if self.pending_sort is not None:
            self.continue_sort()
        if aging is not None:
            self.owned.add(aging)
        self.line(("    Robinson's stack is empty: ", "yellow"),
                  f"the discard ({new - 1} cards) and the aging card {self.names.card(aging)} are "
                  f"shuffled into a new stack of {new} cards." if aging is not None else
                  f"no aging card is left; the discard alone becomes the new stack of {new} cards.")

    def on_life(self, ev, nxt):
        self.life = ev["life"]
        reason = LIFE_REASON.get(ev["reason"], ev["reason"])
        self.line(f"    life {signed(ev['delta'])} ({reason}): life {self.life}")

    def on_ability(self, ev, nxt):
        n = self.names
        ability, card, target = ev["ability"], ev["card"], ev["target"]
        who = f"    {n.short(card)}: " if ev["via_copy"] is None else \
            f"    {n.short(ev['via_copy'])} copies {n.short(card)}: "
        if ability in ("life_plus1", "life_plus2", "aging_life_minus1", "aging_life_minus2"):
            merged, gained = self.take_life(nxt, "ability", "aging"), ev["detail"].get("gained", 0)
            if ability.startswith("aging"):
                text = f"{ABILITY_WORDS[ability]} at the end of the fight" + \
                    (f" (life {self.life})" if merged else "")
            else:
                text = (f"+{gained} life (life {self.life})" if gained else
                        f"+0 life (life already at its maximum, {self.max_life})")
            self.line((who + text, "red" if ability.startswith("aging") else "green"))
            return merged
        if ability == "destroy":
            self.fight["face_down"].add(target)
            self.line(who + f"destroys {n.short(target)} (it counts 0, leaves the game after "
                            f"the fight)")
        elif ability == "double":
            self.line(who + f"doubles {n.short(target)}")
        elif ability in ("exchange1", "exchange2", "below_pile"):
            if ability == "below_pile":
                self.stack_n += 1
                self.line(who + f"puts {n.short(target)} face down under Robinson's stack")
            else:
                self.line(who + f"exchanges {n.short(target)} (onto the discard) for a new card")
        elif ability == "step_minus1":
            self.line(who + ("no effect against a pirate" if self.fight["kind"] == "pirate" else
                             "no effect in the green step" if self.step == 0 else
                             "the hazard counts one step lower at the comparison"))
        elif ability == "sort3":
            self.sort3(who, ev["detail"])
        elif ability == "aging_highest_zero":
            self.line((who + (f"{n.short(target)}, the highest card, counts 0" if target is not None
                              else "no card with a positive value: no effect"), "red"))
        else:
            text, style = ABILITY_SAYS.get(ability, (ability, ""))
            self.line((who + text, style))

    def sort3(self, who, detail):
        n = self.names
        seen, order, gone = detail["seen"], detail["order"], detail["discarded"]
        self.pending_sort = [len(seen), len(order)]
        self.continue_sort()
        if not seen:
            self.line(who + "looks at no card")
            return
        text = f"looks at {n.listing(seen)}"
        text += f"; discards {n.short(gone)}" if gone is not None else "; discards none"
        if order:
            text += f"; puts back {n.listing(order)}{' (first on top)' if len(order) > 1 else ''}"
        self.line(who + text)

    def continue_sort(self):
        """sort3 takes its cards from the stack, across a reshuffle, then puts some back."""
        take = min(self.stack_n, self.pending_sort[0])
        self.stack_n -= take
        self.pending_sort[0] -= take
        if self.pending_sort[0] == 0:
            self.stack_n += self.pending_sort[1]
            self.pending_sort = None

    def on_fight_end(self, ev, nxt):
        n, f = self.names, self.fight
        self.owned.difference_update(ev["destroyed"] + ev["removed"])
        self.ended = ev
        text = f": {ev['total']} against {ev['value']}"
        text += "" if ev["value"] == f["value"] else f" (lowered from {f['value']})"
        merged = self.take_life(nxt, "lost_fight")
        if ev["won"]:
            beaten = " The pirate is beaten." if f["kind"] == "pirate" else ""
            self.line(("  Won", "bold green"), f"{text}.{beaten}")
        else:
            text += f"; pays {ev['life_paid']} life" + (f" (life {self.life})" if merged else "")
            if ev["destroyed"]:
                text += f" and destroys {n.listing(ev['destroyed'])}"
            self.line(("  Lost", "bold red"), text + ".")
        if ev["removed"]:
            self.line(f"  Removed from the game (face down): {n.listing(ev['removed'])}.")
        return merged

    def settle(self, completed: bool):
        """The fight's cards go back (R4.7, R4.8); a beaten opponent counts only when the fight
        ended without losing the game (R4.10)."""
        f = self.fight
        if self.ended is None:
            self.owned -= f["face_down"]
        elif self.ended["won"] and completed:
            if f["kind"] == "pirate":
                self.pirates_beaten.append(f["opponent"])
            else:
                self.owned.add(f["opponent"])
                self.won_hazards += 1
        self.fight = self.ended = None

    def on_game_end(self, ev, nxt):
        if self.fight is not None:
            self.settle(ev["won"])
        self.end = ev
        if ev["won"]:
            self.line(("Robinson beats both pirates and WINS", "bold green"),
                      f" with {ev['life']} life.", gap=True)
        else:
            self.line((CAUSES.get(ev["cause"], ev["cause"]), "bold red"),
                      f": the game is lost in the {ev['step']} step.", gap=True)
        items = self.score_items()
        self.line((f"Score {ev['score']}", "bold"), " (R10.3):")
        for label, points, detail in items:
            self.line(f"  {label:<20s}{points:>+5d}   {detail}")
        if (added := sum(p for _, p, _ in items)) != ev["score"]:
            self.disagreements.append(f"score items add up to {added}, trace score {ev['score']}")

    def score_items(self) -> list[tuple[str, int, str]]:
        """R10.3, item by item: (label, points, what counts)."""
        n = self.names
        cards = [c for c in self.owned if not n.is_aging(c)]
        aging = [c for c in self.owned if n.is_aging(c)]
        won = bool(self.end and self.end["won"])
        life = self.end["life"] if self.end else self.life
        undefeated = self.n_hazards - self.won_hazards
        return [
            ("Robinson's cards", sum(n.value(c) for c in cards),
             f"{len(cards)} cards: {n.grouped(cards)}" if cards else "none"),
            ("aging cards", -5 * len(aging),
             f"{len(aging)} x -5" + (f": {n.grouped(aging)}" if aging else "")),
            ("pirates beaten", 15 * len(self.pirates_beaten), f"{len(self.pirates_beaten)} x 15"),
            ("life", 5 * life if won else 0,
             f"{life} x 5" if won else "counts only in a won game"),
            ("undefeated hazards", -3 * undefeated, f"{undefeated} x -3"),
        ]


def render_lines(events, ids: bool = False, cut_note: bool = True) -> list[list[tuple[str, str]]]:
    """The log as lines of (text, rich style) spans; ``cut_note``: say so at the end of a
    trace that stops before the end of the game."""
    return _Log(events, ids).run(cut_note)


def render_marked(events, ids: bool = False) -> tuple[list, list[int]]:
    """The log's lines (``render_lines``) and, for every event index i up to ``len(events)``,
    how many of them the events before event i wrote: where a moment of the game sits in the
    log (the html replay)."""
    log = _Log(events, ids)
    return log.run(), log.before


def render_text(events, ids: bool = False) -> str:
    """The log as plain text (one string, ending in a newline)."""
    return "".join("".join(t for t, _ in line).rstrip() + "\n"
                   for line in render_lines(events, ids))


def render_rich(events, ids: bool = False):
    """The log as a rich Text, coloured for a terminal (same words as render_text)."""
    from rich.text import Text
    return Text().join(Text.assemble(*line, "\n") for line in render_lines(events, ids))


def score_items(events) -> list[tuple[str, int, str]]:
    """R10.3's score, item by item, of a whole game's trace."""
    log = _Log(events, False)
    log.run()
    return log.score_items()
