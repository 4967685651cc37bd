"""The readable game log (sim.play.render, ``friday replay --format text``)."""
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from policies import builtin_policies, load_policy
from sim.cardtable import build
from sim.cli import app
from sim.fast import play_fast
from sim.play.render import _Log, render_rich, render_text, score_items
from sim.rules import Options
from sim.trace import header

from helpers import fresh_env, run_cli

runner = CliRunner()
GOLDEN = Path(__file__).parent / "golden" / "replay_level2_seed7_game3.txt"
GOLDEN_ARGS = ["replay", "--level", "2", "--seed", "7", "--game", "3", "--policy", "expert"]


def traced(level, seed, game, policy, options=None, deal=None, cards=None):
    options = options or Options()
    trace = play_fast(level, seed, game, policy, options, deal, cards=cards)["trace"]
    return [header("fast", level, seed, game, policy.name, options, cards)] + trace


def test_golden_game_text_is_stable_and_the_same_from_both_engines():
    """One expert game (abilities, reshuffles, both pirates, a win) must read exactly as the
    golden file.  After an intended change of the text, regenerate it with
    ``friday replay --level 2 --seed 7 --game 3 > tests/golden/replay_level2_seed7_game3.txt``
    and read the diff."""
    golden = GOLDEN.read_text(encoding="utf-8")
    for engine in ("reference", "fast"):
        result = runner.invoke(app, GOLDEN_ARGS + ["--engine", engine])
        assert result.exit_code == 0, result.output
        assert result.output == golden, engine


def test_the_log_reads_like_a_game_not_like_data():
    text = GOLDEN.read_text(encoding="utf-8")
    assert "{" not in text and "': " not in text and "#" not in text   # no dicts, no ids
    assert text.count("Fights pirate") == 2                               # each fight once
    for phrase in ("Turn 1 - green step, life 20, Robinson's stack 19, hazards left 28",
                   "hazard side: value 2, 3 free cards; beaten, it becomes the knowledge card",
                   "free card: genius (+2)", "paid card:", "Robinson's stack is empty",
                   "looks at", "copies", "exchanges", "doubles", "destroys",
                   "puts suicidal (-5) face down under Robinson's stack", "Removed from the game",
                   "Lost: 1 against 5; pays 4 life (life 16) and destroys",
                   "Robinson beats both pirates and WINS with 9 life.", "Score 83 (R10.3):",
                   "aging cards           -15   3 x -5", "pirates beaten        +30   2 x 15",
                   "life                  +45   9 x 5", "undefeated hazards    -18   6 x -3"):
        assert phrase in text, phrase


def test_ids_only_with_the_option():
    result = runner.invoke(app, GOLDEN_ARGS + ["--ids"])
    assert result.exit_code == 0
    assert "genius (+2) #16" in result.output
    assert result.output.replace(" #", "").count("#") == 0
    plain = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert len(result.output.splitlines()) == len(plain)


def _bookkeeping_agrees(events):
    log = _Log(events, False)
    log.run()
    assert log.disagreements == [], (events[0], log.disagreements)
    assert sum(points for _, points, _ in score_items(events)) == events[-1]["score"]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_stack_counts_and_score_items_agree_with_the_trace(level):
    """The log's bookkeeping (R7 stack counts, R10.3 items) matches every reshuffle and score
    of the trace, for every built-in policy."""
    other = Options(old_age="continue", step_minus1_stacks=False, plus1_counts_destroyed=False)
    for policy in builtin_policies().values():
        for game in range(25):
            _bookkeeping_agrees(traced(level, 9, game, policy, other if game % 5 == 0 else None))


def test_bookkeeping_on_rare_paths():
    """Every pirate, sort3 across a reshuffle, below_pile, copy, exchange2, old age."""
    from probe import PROBE
    cull = load_policy("cull-green")
    for pair in ([59, 60], [61, 62], [63, 64], [65, 66], [67, 68], [66, 64], [68, 65]):
        for game in range(8):
            _bookkeeping_agrees(traced(1, 7, game, cull, deal={"pirates": pair}))
    seen = set()
    games = [(1, 13, g, PROBE, None) for g in range(100)] + \
        [(1, 13, g, load_policy("expert"), None) for g in range(3)] + \
        [(3, 5, g, PROBE, Options(old_age="continue")) for g in range(60)]
    for level, seed, game, policy, options in games:
        events = traced(level, seed, game, policy, options)
        _bookkeeping_agrees(events)
        seen.add(events[-1]["cause"])
        for ev, nxt in zip(events, events[1:]):
            if ev["e"] == "ability" and nxt["e"] == "reshuffle":
                seen.add(ev["ability"] + "+reshuffle")
            if ev["e"] == "hazard_choice" and ev["fight"] is None:
                seen.add("skip")
    assert {"won", "no_life", "old_age", "skip", "sort3+reshuffle"} <= seen, seen


EDITS = ["16.fight_value=5", "23.fight_value=3", "65.pirate_ability=plus1_per_card",
         "39.hazard_yellow=8"]


def _table_of_header(head: dict):
    """The card table a trace header carries, read back field by field (a test oracle)."""
    from sim.cardtable import CardTable
    rows = []
    for card in head["cards"]:
        hazard, pirate = card["hazard"] or {}, card["pirate"] or {}
        green, yellow, red = hazard.get("values", ("", "", ""))
        fields = {"id": card["id"], "kind": card["kind"], "name": card["name"],
                  "fight_value": card["fight_value"], "ability": card["ability"],
                  "destroy_cost": card["destroy_cost"], "hazard_title": hazard.get("title"),
                  "hazard_free_cards": hazard.get("free"), "hazard_green": green,
                  "hazard_yellow": yellow, "hazard_red": red,
                  "pirate_free_cards": pirate.get("free"),
                  "pirate_hazard_value": pirate.get("value"),
                  "pirate_ability": pirate.get("ability")}
        rows.append({k: "" if v is None else str(v) for k, v in fields.items()})
    return CardTable(rows, source="trace header")


def test_a_trace_header_carries_its_whole_card_table():
    """TRACE.md: a trace is self-describing; the header's table reads back as the same table."""
    from sim.cardtable import printed
    for table in (printed(), build(sets=EDITS)):
        head = header("fast", 1, 1, 0, "expert", Options(), table)
        assert _table_of_header(head).text == table.text


def test_the_log_follows_the_traces_card_table():
    """Names, values and the score items come from the header's card table (an edited genius
    counts 5)."""
    table = build(sets=EDITS)
    expert = load_policy("expert")
    for level in (1, 4):
        for game in range(10):
            _bookkeeping_agrees(traced(level, 3, game, expert, cards=table))
    assert "genius (+5)" in render_text(traced(2, 7, 3, expert, cards=table))


def test_plain_and_rich_say_the_same_words():
    events = traced(2, 7, 3, load_policy("expert"))
    plain = render_text(events)
    rich_text = render_rich(events)
    assert [line.rstrip() for line in rich_text.plain.splitlines()] == plain.splitlines()
    assert any(span.style for span in rich_text.spans)


def test_a_trace_cut_short_says_so():
    events = traced(1, 2, 0, load_policy("random"))
    text = render_text(events[:40])
    assert text.rstrip().endswith("The trace ends here, before the end of the game.")


def test_a_trace_cut_right_after_a_choice_still_reads():
    """A cut anywhere, even between a hazard or pirate choice and its fight_start, reads."""
    events = traced(1, 3, 0, load_policy("expert"))
    choices = [i for i, e in enumerate(events) if e["e"] in ("hazard_choice", "pirate_choice")
               and events[i + 1]["e"] == "fight_start"]
    assert events[choices[-1]]["e"] == "pirate_choice"
    for i in (choices[0], choices[-1]):
        text = render_text(events[:i + 1]).rstrip().splitlines()
        assert text[-3].lstrip().startswith("Fights ") and text[-1].startswith("The trace ends")


def test_a_scripted_replay_that_runs_out_prints_the_game_so_far_then_a_note(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"hazard_stack": list(range(29, 59))}))
    actions = tmp_path / "moves.txt"
    actions.write_text("fight:29\ndraw\n")
    base = ["replay", "--level", "1", "--seed", "1", "--deal", deal, "--actions", actions]
    for fmt, expect in (("text", "free card: weak (0)"), ("jsonl", '"e":"draw"')):
        run = run_cli(*base, "--format", fmt, timeout=300)
        assert run.returncode == 0     # a position (policies.transcript), said on stderr
        assert expect in run.stdout and "error:" not in run.stdout
        assert "the moves end before the game does, after move 2" in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_colour_on_a_terminal_plain_in_a_pipe():
    """rich styles on a terminal (a pseudo-terminal here), none when piped."""
    args = [sys.executable, "-m", "sim.cli"] + GOLDEN_ARGS
    master, slave = pty.openpty()
    env = fresh_env({"TERM": "xterm-256color", "COLUMNS": "200", "NO_COLOR": None})
    proc = subprocess.Popen(args, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=300)
    os.close(master)
    shown = b"".join(chunks).decode()
    assert proc.returncode == 0 and "\x1b[" in shown and "WINS" in shown
    piped = run_cli(*GOLDEN_ARGS, timeout=300)
    assert "\x1b[" not in piped.stdout and piped.stdout == GOLDEN.read_text(encoding="utf-8")


def test_the_guide_sample_is_the_golden_game():
    """The log shown in docs/how-to/watch-and-play.md is this golden game's, made by the command
    above it."""
    guide = (Path(__file__).parent.parent / "docs" / "how-to" / "watch-and-play.md").read_text(
        encoding="utf-8")
    assert "friday replay " + " ".join(GOLDEN_ARGS[GOLDEN_ARGS.index("--level"):]) in guide
    sample = guide.split("```text\n", 1)[1].split("```", 1)[0]
    assert len(sample.splitlines()) >= 10
    golden = GOLDEN.read_text(encoding="utf-8").splitlines()
    for line in sample.splitlines():
        assert line == "..." or line in golden, line
