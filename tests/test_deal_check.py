"""Deal files are checked by sim.deal.check_deal alone, against the set-up rules R2.1-R2.4,
from the deal and the level only: a deal it accepts gives a legal set-up whatever the seed."""
import json
import os
from itertools import combinations

import pytest

import sim.cards as C
import sim.observation as O
from helpers import (MORONIC, VERY_HUNGRY, VERY_STUPID, check_conservation, make_deal, new_game,
                     play, position)
from sim.deal import DEAL_KEYS, check_deal, load_deal
from sim.errors import FridayError, RuleError, UsageError
from sim.rules import YELLOW

A_DISTRACTED = 18     # a normal aging card
# issue 27: the Robinson stack's aging card is very hungry (difficult), the rest lie in order
DIFFICULT_SETUP_CARD = {"robinson_stack": list(range(18)) + [VERY_HUNGRY],
                        "aging_stack": [18, 19, 20, 22, 23, 24, 25, 26, 27]}


def refused(level, deal, match):
    with pytest.raises(FridayError, match=match) as info:     # RuleError; UsageError: format
        check_deal(level, deal)
    assert "\n" not in str(info.value)
    return str(info.value)


@pytest.mark.parametrize("level", [2, 3, 4])
def test_r2_2_the_setup_card_is_never_a_difficult_aging_card(level):
    """R2.1 stacks the normal aging cards on the difficult ones and R2.2 takes the top one, so
    the Robinson stack's aging card is always normal (issue 27)."""
    deal = {**DIFFICULT_SETUP_CARD, "aging_stack": DIFFICULT_SETUP_CARD["aging_stack"][:3]
            + ([VERY_STUPID] if level >= 3 else []) + DIFFICULT_SETUP_CARD["aging_stack"][3:]}
    refused(level, deal, r"aging card 28 \(very hungry\) is a difficult one.*R2\.2")


def test_r2_2_a_difficult_setup_card_is_refused_by_both_engines():
    """The deal of issue 27, played at level 2: no engine plays it."""
    from policies import load_policy
    from sim.fast import play_fast
    with pytest.raises(RuleError, match="R2.2"):
        new_game([], 2, DIFFICULT_SETUP_CARD).set_up()
    with pytest.raises(RuleError, match="R2.2"):
        play_fast(2, 1, 0, load_policy("expert"), deal=DIFFICULT_SETUP_CARD)


@pytest.mark.parametrize("level, card", [(2, A_DISTRACTED), (3, VERY_STUPID), (4, 25)])
def test_r2_2_any_normal_aging_card_may_be_the_setup_card(level, card):
    """R2.2 (very stupid only from level 3, R2.1)."""
    deal = make_deal(level, setup_aging=card)
    assert check_deal(level, deal)["robinson_stack"][-1] == card


def test_r2_1_very_stupid_is_not_in_play_at_levels_1_and_2():
    refused(2, make_deal(2, setup_aging=VERY_STUPID), r"not allowed \[21\]")
    refused(1, {"aging_stack": make_deal(1)["aging_stack"] + [VERY_STUPID]}, r"not allowed \[21\]")


@pytest.mark.parametrize("level", [2, 3, 4])
@pytest.mark.parametrize("key", ["robinson_stack", "aging_stack"])
def test_r2_2_robinson_and_aging_stacks_come_together_from_level_2(level, key):
    """From level 2 the Robinson stack's aging card comes off the aging stack (R2.2): one stack
    alone would be legal on some seeds and not others, so it is refused on all."""
    refused(level, {key: make_deal(level)[key]}, "give robinson_stack and aging_stack together")


@pytest.mark.parametrize("key", ["robinson_stack", "aging_stack"])
def test_r2_1_r2_2_at_level_1_either_stack_alone(key):
    """At level 1 the two stacks share no card (R2.2 adds no aging card)."""
    deal = {key: make_deal(1)[key]}
    assert check_deal(1, deal) == deal


def test_a_card_written_once_is_not_reported_twice():
    """Issue 27: aging card 18 in a level-2 Robinson stack given alone was reported as
    'cards [18] appear more than once'."""
    message = refused(2, {"robinson_stack": list(range(19))}, "together")
    assert "more than once" not in message


def test_r2_2_robinson_stack_size_and_contents():
    refused(1, {"robinson_stack": list(range(17))}, r"missing \[17\]")
    refused(1, {"robinson_stack": list(range(17)) + [0]}, r"cards \[0\] appear more than once")
    deal = make_deal(2)
    robinson, aging = deal["robinson_stack"], deal["aging_stack"]
    refused(2, {"robinson_stack": robinson[:-1], "aging_stack": aging + robinson[-1:]},
            r"19 cards\), got 18")
    refused(2, {"robinson_stack": robinson[1:] + aging[:1], "aging_stack": aging[1:] + robinson[:1]},
            r"19 cards\), got 19 without start cards \[0\]")


def test_r2_1_difficult_aging_cards_lie_below_the_normal_ones():
    aging = make_deal(1)["aging_stack"]
    refused(1, {"aging_stack": [MORONIC] + [c for c in aging if c != MORONIC]},
            r"breaks R2\.1.*\[26\] are above normal cards")
    assert check_deal(1, {"aging_stack": aging[:-3][::-1] + aging[-3:][::-1]})


def test_r2_3_every_hazard_once():
    hazards = list(C.HAZARD_IDS)
    refused(1, {"hazard_stack": hazards[:-1]}, r"30 hazard.*missing \[58\]")
    refused(1, {"hazard_stack": hazards[:-1] + [29]}, r"duplicates \[29\]")


@pytest.mark.parametrize("pirates", [[59, 59], [59, 29], [59], [59, 60, 61]])
def test_r2_4_two_different_pirates(pirates):
    refused(1, {"pirates": pirates}, "two different pirate ids")


def test_ids_and_shape_are_checked_first():
    refused(1, {"pirates": [59, 99]}, "unknown card ids")
    refused(1, {"robinson_stack": "0,1"}, "list of card ids")
    refused(1, {"shuffle": []}, "unknown deal keys")
    refused(1, "{not json", "not valid JSON")


def test_a_deal_file_that_is_not_utf8_json_is_one_usage_error(tmp_path):
    (tmp_path / "utf16.json").write_text('{"pirates": [59, 60]}', encoding="utf-16")
    (tmp_path / "deep.json").write_text('{"comment": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(UsageError, match=r"utf16.json' is not UTF-8 text \(UTF-16\? .*\): "
                                         "save it as UTF-8"):
        load_deal(tmp_path / "utf16.json")
    with pytest.raises(UsageError, match="deep.json': JSON nested too deeply to read: a deal "):
        load_deal(tmp_path / "deep.json")


def test_the_deal_comes_back_top_first_with_the_keys_it_gives():
    deal = {"comment": "a table game", "hazard_stack": list(C.HAZARD_IDS)[::-1],
            "pirates": [66, 59]}
    assert check_deal(1, deal) == {"hazard_stack": deal["hazard_stack"], "pirates": [66, 59]}


def _setup_as_deal(level, seed):
    """The set-up the reference engine deals for a seed (R2), as a deal."""
    g = new_game([], level, seed=seed)
    g.set_up()
    return {k: v for k, v in g.trace[0].items() if k in DEAL_KEYS}


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_r2_every_seeded_setup_is_a_legal_deal(level):
    for seed in range(30):
        deal = _setup_as_deal(level, seed)
        assert check_deal(level, deal) == deal


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_r2_an_accepted_partial_deal_is_legal_on_every_seed(level):
    """Any keys of one seed's set-up, dealt over another seed's: accepted or refused by the
    deal alone, and when accepted the whole set-up is legal (every card once, R1.2; the zones,
    read back as a deal, pass)."""
    for seed in range(6):
        full = _setup_as_deal(level, 100 + seed)
        for n in range(1, len(DEAL_KEYS) + 1):
            for keys in combinations(DEAL_KEYS, n):
                deal = {k: full[k] for k in keys}
                if level >= 2 and ("robinson_stack" in keys) != ("aging_stack" in keys):
                    refused(level, deal, "together")
                    continue
                g = new_game([], level, deal, seed=seed)
                g.set_up()
                check_conservation(g)
                check_deal(level, {k: v for k, v in g.trace[0].items() if k in DEAL_KEYS})


# --- positions (sim.deal: a deal that starts mid-game) -------------------------------------
def _position(level=1, **changes):
    pos = position(level, robinson=[53, 16, 5], discard=[0, 18], hazard_discard=[29],
                   life=7, step=YELLOW)
    return {**pos, **changes}


def test_a_position_is_checked_for_conservation_and_families_instead_of_r2():
    """A position holds knowledge and aging cards in the Robinson stack and discard, any
    order of aging cards, short hazard stacks, removed cards: every card of the level once."""
    pos = _position(aging_stack=[MORONIC] + [c for c in _position()["aging_stack"]
                                             if c != MORONIC])
    assert check_deal(1, pos) == pos
    assert check_deal(3, position(3, robinson=[VERY_STUPID, 5]))["removed"]


@pytest.mark.parametrize("changes, match", [
    ({"robinson_discard": [0, 18, 5]}, r"more than one place: \{5: \['robinson_stack', "
                                       r"'robinson_discard'\]\}"),
    ({"removed": _position()["removed"][1:]}, r"cards \[1\] are in no pile"),
    ({"aging_stack": _position()["aging_stack"] + [30]}, r"aging_stack holds \[30\]"),
    ({"hazard_stack": [5] + _position()["hazard_stack"]}, r"hazard_stack holds \[5\]"),
    ({"life": -1}, r"life must be 0\.\.22 at level 1"),
    ({"life": 23}, r"life must be 0\.\.22 at level 1"),
    ({"life": "7"}, r"life must be 0\.\.22"),
    ({"step": "pirates"}, r"step must be one of \['green', 'yellow', 'red'\], got 'pirates'"),
    ({"step": "blue"}, r"step must be one of"),
    ({"pirates": [59, 59]}, "two different pirate ids"),
])
def test_a_bad_position_is_refused_with_one_line(changes, match):
    refused(1, _position(**changes), match)


def test_a_position_gives_the_three_stacks():
    pos = _position()
    del pos["hazard_stack"]
    refused(1, pos, r"give the stacks \['hazard_stack'\] too")


def test_very_stupid_is_no_card_of_levels_1_and_2_in_a_position():
    refused(2, position(2, robinson=[VERY_STUPID, 5]), r"robinson_stack holds \[21\]")


def test_both_engines_refuse_a_bad_position_and_play_a_good_one_alike():
    """The one check serves both engines; a position's set-up (zones, life, step) is the same
    on both: the setup and step events, the observation and the legal actions."""
    from policies import load_policy
    from sim.fast import play_fast
    bad = _position(life=99)
    with pytest.raises(RuleError, match="life must be"):
        new_game([], 1, bad).set_up()
    with pytest.raises(RuleError, match="life must be"):
        play_fast(1, 1, 0, load_policy("expert"), deal=bad)
    g = play([], deal=_position())
    assert g.trace[1] == {"e": "step", "step": "yellow", "hazard_stack": g.trace[0]["hazard_stack"]}
    assert g.trace[0]["life"] == 7 and g.robinson_discard == [0, 18]
    assert g.aging_in_game == 10 and g.observation(0)[O.O_AGING_TAKEN] == 1


def test_a_deal_path_is_read_whatever_its_name_and_a_folder_is_refused(tmp_path):
    """A file whose name starts with '{' is a file, a pipe is read, a folder is named as one;
    inline JSON longer than a file name can be is still JSON."""
    deal = {"pirates": [59, 60]}
    (tmp_path / "{weird}.json").write_text(json.dumps(deal))
    assert load_deal(tmp_path / "{weird}.json") == deal
    read, write = os.pipe()
    os.write(write, json.dumps(deal).encode())
    os.close(write)
    try:
        assert load_deal(f"/dev/fd/{read}") == deal
    finally:
        os.close(read)
    with pytest.raises(UsageError, match="is a folder: give a JSON file"):
        load_deal(tmp_path)
    long = {"comment": "x" * 5000, **deal}
    assert load_deal(json.dumps(long)) == long
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(deal).encode())
    assert load_deal(tmp_path / "bom.json") == deal                 # a BOM, as Notepad writes
