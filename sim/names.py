"""Cards by their readable names, from a trace header's card table (TRACE.md), and the
abilities and pirate rules in words (R5, R6, R9.5): for the game log and ``friday play``."""
from __future__ import annotations

ABILITY_WORDS = {
    "life_plus1": "+1 life", "life_plus2": "+2 life", "draw_plus1": "draw 1 card",
    "draw_plus2": "draw up to 2 cards", "destroy": "destroy 1 card", "double": "double 1 card",
    "copy": "copy an ability", "sort3": "sort 3 cards", "step_minus1": "step -1",
    "exchange1": "exchange 1 card", "exchange2": "exchange up to 2 cards",
    "below_pile": "1 card below the stack", "aging_life_minus1": "-1 life",
    "aging_life_minus2": "-2 life", "aging_highest_zero": "highest card = 0",
    "aging_stop": "stop free cards"}
PIRATE_WORDS = {
    "extra_card_costs_2": "each paid card costs 2 life",
    "half_cards_count": "only half of the fight's cards count",
    "plus1_per_card": "+1 to Robinson's total per fighting card",
    "fight_remaining_hazards": "value and free cards of all remaining hazards",
    "plus2_per_aging": "value 2 per aging card taken"}
def signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def count(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


class CardNames:
    """Names and values of the cards, from a trace header's card table (TRACE.md)."""

    def __init__(self, table, ids: bool = False):
        self.table = {int(row["id"]): row for row in table}
        self.ids = ids

    def _tag(self, c) -> str:
        return f" #{c}" if self.ids else ""

    def kind(self, c) -> str:
        return self.table[c]["kind"]

    def value(self, c) -> int:
        return int(self.table[c]["fight_value"])

    def is_aging(self, c) -> bool:
        return self.kind(c).startswith("aging")

    def short(self, c) -> str:
        """A Robinson card: 'genius (+2)'."""
        return f"{self.table[c]['name']} ({signed(self.value(c))}){self._tag(c)}"

    def card(self, c) -> str:
        """A Robinson card with its ability: 'vision (+2, sort 3 cards)'."""
        row = self.table[c]
        words = ABILITY_WORDS.get(row["ability"], "")
        extra = ("aging" + (f": {words}" if words else "")) if self.is_aging(c) else words
        return f"{row['name']} ({signed(self.value(c))}{', ' + extra if extra else ''}){self._tag(c)}"

    def hazard(self, c) -> str:
        return f"{self.table[c]['hazard']['title']}{self._tag(c)}"

    def hazard_value(self, c, step: int) -> int:
        return int(self.table[c]["hazard"]["values"][min(step, 2)])

    def pirate(self, c) -> str:
        return f"{self.table[c]['name']}{self._tag(c)}"

    def pirate_rules(self, c) -> str:
        p = self.table[c]["pirate"]
        if p["ability"] == "fight_remaining_hazards":
            return PIRATE_WORDS["fight_remaining_hazards"]
        if p["ability"] == "plus2_per_aging":
            return f"{p['free']} free cards, {PIRATE_WORDS['plus2_per_aging']}"
        text = f"{p['free']} free cards, value {p['value']}"
        return text + (f", {PIRATE_WORDS[p['ability']]}" if p["ability"] != "none" else "")

    def opponent(self, c) -> str:
        return self.pirate(c) if self.kind(c) == "pirate" else self.hazard(c)

    def grouped(self, cards) -> str:
        """'weapon (+4) x2, genius (+2), weak (0) x3': by value, highest first."""
        if self.ids:
            return ", ".join(self.short(c) for c in sorted(cards, key=lambda c: (-self.value(c), c)))
        counts: dict[str, int] = {}
        for c in sorted(cards, key=lambda c: (-self.value(c), self.table[c]["name"])):
            counts[self.short(c)] = counts.get(self.short(c), 0) + 1
        return ", ".join(name + (f" x{n}" if n > 1 else "") for name, n in counts.items())

    def listing(self, cards, how=None) -> str:
        names = [(how or self.short)(c) for c in cards]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
