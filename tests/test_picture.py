"""A Game draws itself in a notebook (sim.play.picture, Game._repr_html_): the position as the
player may know it (R1.4), with the cards' faces, read off the observation."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from sim import Game
from sim import observation as O
from sim.cardtable import build
from sim.fast.layout import card_table
from sim.observation import cards_in
from sim.play.picture import table_rows


def labels(html: str) -> list[str]:
    """The aria-labels of the faces drawn, in order (the page parses as XML)."""
    root = ET.fromstring(html)
    return [e.get("aria-label") for e in root.iter("{http://www.w3.org/2000/svg}svg")]


def advance_to(g: Game, phase: str) -> Game:
    """Play the expert until the game waits at a ``phase`` decision."""
    while not g.is_over and g.phase != phase:
        g.step(g.policy_action("expert"))
    return g


def test_the_first_decision_draws_the_hazards_drawn_and_the_pirates():
    g = Game.new(level=4, seed=1, game=0)
    html = g._repr_html_()
    drawn, pirates = cards_in(g.observation, O.Z_HAZARD_DRAWN), (g.observation[O.O_PIRATE_1],
                                                                 g.observation[O.O_PIRATE_2])
    faces = labels(html)
    assert len(faces) == len(drawn) + 2                     # the two pirates, the hazards
    assert all("PIRATE" not in f for f in faces)            # labels, not the faces' text
    obs = g.observation
    assert "green step, turn 1" in html
    assert f"life {obs[O.O_LIFE]} of {obs[O.O_MAX_LIFE]}" in html
    assert f"legal: {', '.join(g.legal_action_names())}" in html
    assert len(pirates) == 2 and "<script" not in html and not re.search(r"\b(src|href)=", html)


def test_a_fight_draws_the_opponent_each_side_and_the_engines_total():
    g = advance_to(Game.new(level=2, seed=3, game=5), "fight")
    obs = g.observation
    html = g._repr_html_()
    side = cards_in(obs, O.Z_FIGHT_LEFT) + cards_in(obs, O.Z_FIGHT_RIGHT)
    assert len(labels(html)) == 2 + 1 + len(side)          # pirates, the opponent, the cards
    assert f"<b>total {obs[O.O_FIGHT_TOTAL]}</b> against value {obs[O.O_FIGHT_VALUE]}" in html


def test_a_what_if_table_draws_its_own_values_and_the_end_its_result():
    cards = build(sets=["genius.fight_value=4"])
    g = Game.new(level=1, seed=2, game=0, table=card_table(cards))
    g.play("expert")
    html = g._repr_html_()
    assert "game over: " in html and f"score {g.result['score']}" in html
    genius = next(r for r in table_rows(card_table(cards)) if r["name"] == "genius")
    assert genius["fight_value"] == 4


def test_a_notebook_shows_the_drawing():
    formatters = pytest.importorskip("IPython.core.formatters")
    bundle, _ = formatters.DisplayFormatter().format(Game.new(level=1, seed=1, game=0))
    assert bundle["text/html"].startswith('<div class="friday-position"')
    assert bundle["text/plain"].startswith("<Game level 1 seed 1 game 0")
