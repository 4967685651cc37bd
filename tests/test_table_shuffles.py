"""Table games past their reshuffles (sim.deal RESHUFFLE_KEYS): a deal gives the orders the
table's later shuffles gave (R7.1 the Robinson stack, R8.1 the hazard stack), each top first,
whole or only the cards seen; both engines play them alike, a copy that resamples the hidden
orders forgets them (R1.4), and a shuffle that cannot have happened is one error line."""
import json

import pytest
from typer.testing import CliRunner

from policies import load_policy
from policies.scripted import ScriptedPolicy
from sim import Game
from sim.actions import action_name
from sim.cli import app
from sim.deal import check_deal
from sim.fast import layout as Y
from sim.fast.api import play_fast
from sim.reference import play_game
from sim.errors import FridayError, RuleError, UsageError


def table_game(level, seed, game, policy="veteran"):
    """A game as a table would write it down: the deal with every later shuffle (from the
    game's own trace), the moves, and the trace."""
    g, pol, moves = Game.new(level, seed, game, trace=True), load_policy(policy), []
    while not g.is_over:
        a = g.policy_action(pol)
        moves.append(action_name(a))
        g.step(a)
    setup = next(e for e in g.trace if e["e"] == "setup")
    deal = {key: setup[key] for key in ("robinson_stack", "aging_stack", "hazard_stack",
                                        "pirates")}
    deal["robinson_reshuffles"] = [e["robinson_stack"] for e in g.trace if e["e"] == "reshuffle"]
    deal["hazard_reshuffles"] = [e["hazard_stack"] for e in g.trace
                                 if e["e"] == "step" and e["step"] in ("yellow", "red")]
    return deal, moves, g.trace


def fast_game(level, seed, game, deal, moves):
    g = Game.new(level, seed, game, deal=deal, trace=True)
    for a in moves:
        g.step(a)
    return g


@pytest.mark.parametrize("level,game", [(4, 0), (4, 1), (4, 2), (1, 3), (2, 4), (3, 5)])
def test_a_table_game_with_its_shuffles_replays_under_any_seed(level, game):
    deal, moves, trace = table_game(level, 1, game)
    assert deal["robinson_reshuffles"], "the game has reshuffles to follow"
    for seed in (99, 12345):            # every order comes from the deal, none from the seed
        ref = play_game(level, seed, game, ScriptedPolicy(moves), deal=deal)
        assert ref.trace == trace
        assert fast_game(level, seed, game, deal, moves).trace == trace


def partial(level, game, stack):
    """A table game's deal whose shuffles up to the first of ``stack`` are whole, that one
    only its top 3 cards (the cards seen), none after it: from there the games part."""
    deal, _, trace = table_game(level, 1, game)
    kind = "reshuffle" if stack == "robinson" else "step"
    at = next(i for i, e in enumerate(trace) if e["e"] == kind and e.get("step") != "green")
    robinson = [e["robinson_stack"] for e in trace[:at] if e["e"] == "reshuffle"]
    deal["hazard_reshuffles"] = [trace[at]["hazard_stack"][:3]] if stack == "hazard" else []
    deal["robinson_reshuffles"] = robinson + ([trace[at]["robinson_stack"][:3]]
                                              if stack == "robinson" else [])
    return deal


@pytest.mark.parametrize("stack", ["robinson", "hazard"])
def test_only_the_cards_seen_both_engines_alike_the_rest_from_the_seed(stack):
    deal = partial(1, 3, stack)
    pol = load_policy("veteran")
    ref = play_game(1, 5, 3, pol, deal=deal)
    g = Game.new(1, 5, 3, deal=deal, trace=True)
    g.play(pol)
    assert ref.trace == g.trace
    if stack == "robinson":
        orders = [e["robinson_stack"] for e in ref.trace if e["e"] == "reshuffle"]
        given = deal["robinson_reshuffles"]
    else:
        orders = [e["hazard_stack"] for e in ref.trace if e["e"] == "step"][1:2]
        given = deal["hazard_reshuffles"]
    assert len(orders) >= len(given) and orders[len(given) - 1][:3] == given[-1]


def test_without_table_shuffles_every_game_is_as_before():
    """The seed's shuffle is drawn in any case: a deal without them plays the seed's game."""
    deal, moves, trace = table_game(4, 1, 2)
    plain = {k: v for k, v in deal.items() if "reshuffles" not in k}
    ref = play_game(4, 1, 2, ScriptedPolicy(moves), deal=plain)
    assert ref.trace == trace


def test_a_resampled_copy_forgets_the_tables_later_shuffles():
    deal, moves, _ = table_game(4, 1, 0)
    g = Game.new(4, 99, 0, deal=deal)
    assert g._S[Y.S_TABLE_R] == 1 and g._S[Y.S_TABLE_H] == 1    # the next ones, loaded
    h = g.resampled(seed=3)
    assert h._S[Y.S_TABLE_R] == 0 and h._S[Y.S_TABLE_H] == 0 and not h._table_shuffles
    assert g.clone()._S[Y.S_TABLE_R] == 1                       # a plain copy keeps them


def impossible_deal():
    """Game 0's deal whose first Robinson reshuffle claims a hazard card never won."""
    deal, moves, trace = table_game(4, 1, 0)
    first = next(e for e in trace if e["e"] == "reshuffle")
    never = sorted(set(range(29, 59)) - set(first["robinson_stack"]))[0]
    deal["robinson_reshuffles"][0] = [never] + deal["robinson_reshuffles"][0][:2]
    return deal, moves, never


def test_a_shuffle_that_cannot_have_happened_is_the_same_error_on_both_engines():
    deal, moves, never = impossible_deal()
    with pytest.raises(RuleError) as ref:
        play_game(4, 1, 0, ScriptedPolicy(moves), deal=deal)
    with pytest.raises(RuleError) as fast:
        fast_game(4, 1, 0, deal, moves)
    assert str(ref.value) == str(fast.value)
    assert str(ref.value).startswith(f"deal robinson_reshuffles, shuffle 1 (turn ")
    assert f"cannot hold card {never} (" in str(ref.value)
    assert "shuffled from the discard and the top aging card (R7.1)" in str(ref.value)


def test_more_table_shuffles_than_the_game_had_is_an_error():
    deal, moves, _ = table_game(4, 1, 0)
    deal["robinson_reshuffles"].append([0])
    n = len(deal["robinson_reshuffles"])
    message = f"deal: it gives {n} robinson_reshuffles but the game had {n - 1}"
    with pytest.raises(RuleError, match=message):
        play_game(4, 1, 0, ScriptedPolicy(moves), deal=deal)
    with pytest.raises(RuleError, match=message):
        fast_game(4, 1, 0, deal, moves)


@pytest.mark.parametrize("orders,message", [
    ({"robinson_reshuffles": [[3, 3]]}, "shuffle 1: cards [3] appear more than once"),
    ({"robinson_reshuffles": [[], [60]]}, "shuffle 2: [60] ("),
    ({"robinson_reshuffles": [[21]]}, "not allowed"),          # very stupid: level 3 and 4 only
    ({"hazard_reshuffles": [[3]]}, "it holds hazard cards"),
    ({"hazard_reshuffles": [[30], [31], [32]]}, "gives 3 shuffles"),
    ({"robinson_reshuffles": [3, 4]}, "must be a list of card-id lists"),
    ({"robinson_reshuffles": [[17, 99]]}, "shuffle 1: unknown card ids [99] (ids are 0..68)"),
    ({"hazard_reshuffles": [[-1]]}, "unknown card ids [-1]"),
])
def test_table_shuffles_the_deal_alone_rules_out(orders, message):
    with pytest.raises(FridayError) as error:            # RuleError; UsageError: the format
        check_deal(1, orders)
    assert message in str(error.value)


def test_one_call_of_the_fast_engine_refuses_more_than_one():
    deal, _, _ = table_game(4, 1, 0)
    with pytest.raises(UsageError, match="played by sim.Game or the reference engine"):
        play_fast(4, 1, 0, load_policy("veteran"), deal=deal)


def test_replay_and_review_of_an_impossible_shuffle_are_one_error_line(tmp_path):
    deal, moves, _ = impossible_deal()
    (tmp_path / "deal.json").write_text(json.dumps(deal))
    (tmp_path / "moves.txt").write_text("\n".join(moves) + "\n")
    for command in (["replay"], ["review", "--rollouts", "10", "--out", str(tmp_path / "r.parquet")]):
        result = CliRunner().invoke(app, [*command, "--level", "4", "--seed", "1", "--deal",
                                          str(tmp_path / "deal.json"), "--actions",
                                          str(tmp_path / "moves.txt")])
        assert result.exit_code == 2, result.output
        errors = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
        assert len(errors) == 1 and "deal robinson_reshuffles, shuffle 1" in errors[0]
        assert not (tmp_path / "r.parquet").exists()


def test_a_table_game_with_its_shuffles_is_reviewed_to_the_end(tmp_path):
    """Under another seed the transcript plays to the game's own end, and review scores its
    decisions after the reshuffles too (from resampled copies: they forget the table's)."""
    from sim.lab.review import play_through, review
    deal, moves, trace = table_game(4, 1, 1)
    played = play_through(4, 77, 1, deal=deal, actions=moves)
    end = next(e for e in trace if e["e"] == "game_end")
    assert played.end.is_over and played.end.result["score"] == end["score"]
    assert not played.note
    first_reshuffle = next(i for i, e in enumerate(trace) if e["e"] == "reshuffle")
    later = [d for d, before in enumerate(played.events_before) if before > first_reshuffle]
    rows = review(played, rollouts=10)
    assert later and set(later) & set(rows.decision)
    (tmp_path / "deal.json").write_text(json.dumps(deal))
    (tmp_path / "moves.txt").write_text("\n".join(moves) + "\n")
    result = CliRunner().invoke(app, ["review", "--level", "4", "--seed", "77", "--deal",
                                      str(tmp_path / "deal.json"), "--actions",
                                      str(tmp_path / "moves.txt"), "--rollouts", "10"])
    assert result.exit_code == 0, result.output


EXAMPLES = __import__("pathlib").Path(__file__).resolve().parent.parent / "examples"


def test_the_samples_transcript_gives_its_shuffles_so_any_seed_replays_it():
    """examples/table_moves.txt writes each shuffle where it happened (robinson_reshuffle: ...,
    hazard_reshuffle: ...): the same game with seed 1 (whose shuffles they are) and seed 2."""
    text = (EXAMPLES / "table_moves.txt").read_text()
    assert "robinson_reshuffle: " in text and "hazard_reshuffle: " in text
    outputs = []
    for seed in ("1", "2"):
        result = CliRunner().invoke(app, ["replay", "--level", "1", "--seed", seed, "--deal",
                                          str(EXAMPLES / "table_deal.json"), "--actions",
                                          str(EXAMPLES / "table_moves.txt"), "--format", "jsonl"])
        assert result.exit_code == 0, result.output
        outputs.append(result.output.splitlines()[1:])          # the header names the seed
    assert outputs[0] == outputs[1] and outputs[0][-1].startswith('{"e":"game_end"')
    script = ScriptedPolicy.from_file(EXAMPLES / "table_moves.txt")
    assert len(script.shuffles["robinson_reshuffles"]) == text.count("robinson_reshuffle: ")


@pytest.mark.parametrize("lines,deal,message", [
    (["robinson_reshuffle: 3 x"], None, "a shuffle lists card ids, top first"),
    (["robinson_reshuffle: 3"], {"robinson_reshuffles": [[3]]},
     "the deal both give robinson_reshuffles: give the table's shuffles in one of them"),
])
def test_a_bad_shuffle_line_is_one_error(lines, deal, message):
    with pytest.raises(UsageError, match=message):
        ScriptedPolicy(["fight:30"] + lines).deal_with_shuffles(deal)
