"""Make the sample table game of the documentation (docs/how-to/replay-a-table-game.md).

    python examples/make_table_game.py

``table_deal.json`` stands in for the stacks of a game dealt at a table (level 1): the set-up
of game 0 of master seed 2026, written as a deal file (top card first).  ``table_moves.txt``
stands in for the moves written down while playing it: the ``expert`` policy's actions on that
deal with master seed 1 (the seed that then decides every later reshuffle), one per line, each
with a comment in words, and the orders the game's later shuffles gave, where they happened
(``robinson_reshuffle: ...``, ``hazard_reshuffle: ...``, top card first: what a player writes
down as the cards come).  ``friday replay --level 1 --seed 1 --deal examples/table_deal.json
--actions examples/table_moves.txt`` plays them again to the end, with any seed (the docs'
examples run).
"""
import json
from pathlib import Path

from policies import load_policy
from sim import Game
from sim import cards as C
from sim import observation as O

HERE = Path(__file__).parent
LEVEL, DEAL_SEED, SEED = 1, 2026, 1


def deal() -> dict:
    setup = next(e for e in Game.new(LEVEL, DEAL_SEED, 0, trace=True).trace if e["e"] == "setup")
    return {"comment": "a level-1 deal written down at the table: stacks top card first",
            **{k: setup[k] for k in ("robinson_stack", "aging_stack", "hazard_stack",
                                     "pirates")}}


def label(name: str) -> str:
    """The card of an action in words: a hazard by its title, any other card by its name."""
    family, _, card = name.partition(":")
    card = int(card)
    if family == "fight":
        return f"{C.HAZARD_TITLE[card]} ({C.NAME[card]} {C.FIGHT_VALUE[card]:+d} when beaten)"
    return f"{C.NAME[card]} ({C.FIGHT_VALUE[card]:+d})" if C.KIND[card] != C.KIND_PIRATE \
        else C.NAME[card]


def write_deal(path: Path, table_deal: dict):
    """One key per line, its cards on that line."""
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in table_deal.items()]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n")


def shuffle_lines(events) -> list[str]:
    """The table's shuffles among a move's events, as a transcript writes them down."""
    lines = []
    for e in events:
        if e["e"] == "reshuffle":
            lines.append("robinson_reshuffle: " + " ".join(map(str, e["robinson_stack"])))
        elif e["e"] == "step" and e["step"] in ("yellow", "red"):
            lines.append("hazard_reshuffle: " + " ".join(map(str, e["hazard_stack"])))
    return lines


def moves(table_deal: dict) -> list[str]:
    g, expert, lines, turn = Game.new(LEVEL, SEED, 0, deal=table_deal, trace=True), \
        load_policy("expert"), [], 0
    while not g.is_over:
        if g.observation[O.O_TURN] != turn:
            turn = int(g.observation[O.O_TURN])
            lines.append(f"# turn {turn}, life {g.observation[O.O_LIFE]}")
        name = g.legal_action_names()[g.legal_actions().index(g.policy_action(expert))]
        lines.append(f"{name:<12}# {label(name)}" if ":" in name else name)
        before = len(g.trace)
        g.step(name)
        lines += shuffle_lines(g.trace[before:])
    lines.append(f"# the end: score {g.result['score']}, {'won' if g.result['won'] else 'lost'}")
    return lines


if __name__ == "__main__":
    table_deal = deal()
    write_deal(HERE / "table_deal.json", table_deal)
    (HERE / "table_moves.txt").write_text("\n".join(moves(table_deal)) + "\n")
