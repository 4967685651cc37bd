"""Traces of positions and of batches (issue 41, item 5; docs/TRACE.md, its extensions).

``follow`` is an independent reader of a trace: it knows RULES.md and docs/TRACE.md, not the
project's code (it imports nothing of ``sim``; card data come from the header's table).  It
places every card from the ``setup`` event and moves it event by event, and checks as it goes
that each card drawn is the top one, that each reshuffle (R7.1) holds exactly the discard and
the aging card, that each new hazard stack (R8.1) holds exactly the hazard discard, that life
adds up, and at the end that the score (R10.3) is the one ``game_end`` reports.  A game from a
position can be followed only because its setup names the discards and removed cards.
"""
import gzip
import json

import pytest

from helpers import ctrl_c_as_in_a_terminal, interrupt_cli, run_cli

# a hand-made position at level 2 (sim.deal): a short Robinson stack (a reshuffle soon), a
# discard of start, knowledge (29) and aging (19) cards, removed cards, a hazard discard,
# a life and a step; every level-2 card in exactly one pile
POSITION = {
    "robinson_stack": [5, 13],
    "robinson_discard": [0, 16, 29, 19, 6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 1],
    "removed": [2, 3, 4, 18],
    "aging_stack": [20, 22, 23, 24, 25, 26, 27, 28],
    "hazard_stack": list(range(30, 46)),
    "hazard_discard": list(range(46, 59)),
    "pirates": [59, 66], "life": 9, "step": "yellow",
}
PILES = ("robinson_discard", "hazard_discard", "removed")


class Broken(AssertionError):
    """The trace contradicts itself or the rules: ``follow`` cannot place a card."""


def check(ok, message):
    if not ok:
        raise Broken(message)


def follow(game: list) -> dict:
    """Follow a game ([header, events...]) from its trace alone (module docstring); returns
    the score it recomputes, the reshuffles it checked and the first one's cards."""
    head, events = game[0], game[1:]
    table = {c["id"]: c for c in head["cards"]}
    z = {"setup": None, "fight": None, "ended": None, "sort": None, "below": None,
         "hand": [], "beaten": 0, "reshuffles": [], "first_step": True}

    def take_top(card):
        check(z["rstack"] and z["rstack"][0] == card,
              f"card {card} drawn, but the Robinson stack's top is {z['rstack'][:1]}")
        z["rstack"].pop(0)

    def take_seen():                                   # sort3's cards, as the stack has them
        seen, detail = z["sort"]
        while seen and z["rstack"]:
            take_top(seen[0])
            z["hand"].append(seen.pop(0))
        put = detail["order"] + ([detail["discarded"]] if detail["discarded"] is not None
                                 else [])
        if not seen and sorted(put) == sorted(z["hand"]):   # R5.6: one discarded, the rest
            z["rdisc"] += put[len(detail["order"]):]         # back on top
            z["rstack"][:0] = detail["order"]
            z["hand"], z["sort"] = [], None
        # else: the stack was empty for the next card and the game ended by old age (R7.2):
        # the hand is still Robinson's (game_end checks that nothing followed)

    def fight_cards():
        f = z["fight"]
        return f["left"] + f["right"]

    def close_fight(end, lost_game):                   # R4.7, R4.8, R4.10
        f = z["fight"]
        check(sorted(end["removed"]) == sorted(f["down"]), f"fight_end removed {end}")
        gone = set(end["removed"]) | set(end["destroyed"])
        z["removed"] += sorted(gone)
        z["rdisc"] += [c for c in fight_cards() if c not in gone]
        if end["won"] and not lost_game:
            if f["kind"] == "pirate":
                z["beaten"] += 1
            else:
                z["rdisc"].append(f["opponent"])       # knowledge now
        elif f["kind"] == "hazard":
            z["hdisc"].append(f["opponent"])
        z["fight"] = z["ended"] = None

    for ev in events:
        e = ev["e"]
        if z["ended"] is not None and e not in ("life", "ability", "game_end"):
            close_fight(z["ended"], False)
        if z["below"] is not None and e != "reshuffle":
            z["rstack"].append(z["below"])             # R5.9: under the stack
            z["below"] = None
        if e == "setup":
            z.update(rstack=list(ev["robinson_stack"]), astack=list(ev["aging_stack"]),
                     hstack=list(ev["hazard_stack"]), life=ev["life"],
                     rdisc=list(ev.get("robinson_discard", [])),
                     hdisc=list(ev.get("hazard_discard", [])),
                     removed=list(ev.get("removed", [])), start=ev.get("step", "green"))
        elif e == "step":
            if z["first_step"]:
                check(ev["step"] == z["start"] and ev["hazard_stack"] == z["hstack"],
                      f"the first step event {ev} is not the setup's")
                z["first_step"] = False
            elif ev["step"] == "pirates":
                check(z["hstack"] == [] and ev["hazard_stack"] == [], f"{ev}")
            else:                                      # R8.1: the hazard discard, shuffled
                check(sorted(ev["hazard_stack"]) == sorted(z["hdisc"]),
                      f"the {ev['step']} stack {sorted(ev['hazard_stack'])} is not the "
                      f"hazard discard {sorted(z['hdisc'])}")
                z["hstack"], z["hdisc"] = list(ev["hazard_stack"]), []
        elif e == "hazards_drawn":
            n = len(ev["cards"])
            check(z["hstack"][:n] == ev["cards"], f"{ev} is not the hazard stack's top")
            z["hstack"], z["drawn"] = z["hstack"][n:], ev["cards"]
        elif e == "hazard_choice":
            check(sorted(ev["discarded"] + ([ev["fight"]] if ev["fight"] is not None else []))
                  == sorted(z["drawn"]), f"{ev}")
            z["hdisc"] += ev["discarded"]
        elif e == "fight_start":
            z["fight"] = {"opponent": ev["opponent"], "kind": ev["kind"], "left": [],
                          "right": [], "down": set()}
        elif e == "draw":
            take_top(ev["card"])
            z["fight"][ev["side"]].append(ev["card"])
        elif e == "reshuffle":                         # R7.1
            check(z["rstack"] == [], f"a reshuffle with {z['rstack']} still in the stack")
            aging = z["astack"][0] if z["astack"] else None
            check(ev["aging_added"] == aging, f"{ev}: the aging stack's top is {aging}")
            if aging is not None:
                z["astack"].pop(0)
            expected = sorted(z["rdisc"] + ([aging] if aging is not None else []))
            check(sorted(ev["robinson_stack"]) == expected,
                  f"reshuffle {len(z['reshuffles']) + 1} holds {sorted(ev['robinson_stack'])}, "
                  f"but the discard and the aging card are {expected}")
            z["reshuffles"].append(expected)
            z["rstack"], z["rdisc"] = list(ev["robinson_stack"]), []
            if z["sort"] is not None:
                take_seen()
            if z["below"] is not None:
                z["rstack"].append(z["below"])
                z["below"] = None
        elif e == "ability":
            ability, target, f = ev["ability"], ev["target"], z["fight"]
            if ability == "destroy":                   # R5.3
                f["down"].add(target)
            elif ability in ("exchange1", "exchange2", "below_pile"):      # R5.8, R5.9
                f["left" if target in f["left"] else "right"].remove(target)
                if ability == "below_pile":
                    z["below"] = target
                else:
                    z["rdisc"].append(target)
            elif ability == "sort3":                   # R5.6
                z["sort"] = (list(ev["detail"]["seen"]), ev["detail"])
                take_seen()
        elif e == "life":
            check(z["life"] + ev["delta"] == ev["life"] >= 0, f"{ev} after life {z['life']}")
            z["life"] = ev["life"]
        elif e == "fight_end":
            z["ended"] = ev
        elif e == "game_end":
            mine = []                                  # cards still in a fight or a hand
            if z["ended"] is not None:
                close_fight(z["ended"], ev["cause"] != "won")
            elif z["fight"] is not None:               # R4.10: lost in the fight
                mine += [c for c in fight_cards() if c not in z["fight"]["down"]]
                if z["fight"]["kind"] == "hazard":
                    z["hdisc"].append(z["fight"]["opponent"])
            check(z["sort"] is None or ev["cause"] == "old_age", "sort3 left unfinished")
            mine += z["hand"] + ([z["below"]] if z["below"] is not None else [])
            check(ev["life"] == z["life"], f"{ev}: life is {z['life']}")
            robinson = z["rstack"] + z["rdisc"] + mine
            score = sum(-5 if table[c]["kind"].startswith("aging") else table[c]["fight_value"]
                        for c in robinson)                                 # R10.3
            score += 15 * z["beaten"] + (5 * z["life"] if ev["won"] else 0)
            score -= 3 * (len(z["hstack"]) + len(z["hdisc"]))
            check(score == ev["score"], f"the score is {score}, game_end says {ev['score']}")
            places = robinson + z["astack"] + z["hstack"] + z["hdisc"] + z["removed"]
            check(len(places) == len(set(places)), "a card in two places")
            return {"score": score, "reshuffles": z["reshuffles"]}
    raise Broken("no game_end event")


def played(engine, deal=None, level=2, seed=3, policy="expert"):
    """[header, events...] of one game on ``engine``."""
    from policies import load_policy
    from sim.rules import Options
    from sim.trace import header
    pol = load_policy(policy)
    if engine == "reference":
        from sim.reference import Game
        events = Game(level, seed, 0, pol, Options(), deal).play().trace
    else:
        from sim.fast import play_fast
        events = play_fast(level, seed, 0, pol, Options(), deal)["trace"]
    return [header(engine, level, seed, 0, pol.name, Options())] + events


def test_a_position_s_setup_names_its_piles_on_both_engines(fast_engine):
    """The setup event of a game from a position names its discards, removed cards and step
    as the deal gives them (docs/TRACE.md's extension), and both engines write the same
    trace, event for event."""
    fast_engine("expert")
    ref, fast = played("reference", POSITION), played("fast", POSITION)
    setup = ref[1]
    assert {k: setup[k] for k in PILES + ("step", "life")} == {
        k: POSITION[k] for k in PILES + ("step", "life")}
    assert ref[2] == {"e": "step", "step": "yellow", "hazard_stack": POSITION["hazard_stack"]}
    assert ref[1:] == fast[1:]


def test_a_game_from_the_ordinary_start_writes_no_position_fields():
    """Without a position (no deal, or a deal of stacks only) the setup event is the shared
    format's: the same six fields as before."""
    for deal in (None, {"hazard_stack": list(range(29, 59)), "pirates": [59, 66]}):
        setup = played("reference", deal)[1]
        assert set(setup) == {"e", "robinson_stack", "hazard_stack", "aging_stack", "pirates",
                              "life", "max_life"}


@pytest.mark.parametrize("policy, seed", [("expert", 3), ("expert", 11), ("random", 5)])
def test_the_trace_alone_recomputes_the_first_reshuffle_and_the_score(policy, seed,
                                                                      fast_engine):
    """``follow`` reads the position's trace without the project's code: the first reshuffle
    holds the setup's discard, the cards discarded since and the aging card (R7.1), and the
    score is R10.3's; without the setup's piles the same reader fails at that reshuffle."""
    fast_engine(policy)
    for engine in ("reference", "fast"):
        game = played(engine, POSITION, seed=seed, policy=policy)
        followed = follow(game)
        assert followed["reshuffles"], "the short stack was reshuffled"
        assert set(POSITION["robinson_discard"]) <= set(followed["reshuffles"][0])
        stripped = [game[0], {k: v for k, v in game[1].items() if k not in PILES}] + game[2:]
        with pytest.raises(Broken, match="reshuffle 1 holds"):
            follow(stripped)


@pytest.mark.parametrize("level, spec", [
    (1, {"discard": [0, 1, 2, 29, 52], "life": 3}),
    (3, {"robinson": [5, 6], "discard": [7, 8, 19, 21, 30, 44], "step": 1,
         "hazard_discard": [31]}),
    (4, {"robinson": [], "discard": [3, 4, 5, 21, 40, 51], "step": 2, "life": 1}),
])
def test_every_game_from_a_position_can_be_followed(level, spec, fast_engine):
    """Games 0-19 of each position (tests/helpers.position), in random and in expert play:
    both engines write the same trace, and ``follow`` recomputes its score from it alone."""
    from helpers import position
    from sim.fast import play_fast
    from sim.reference import Game
    from sim.rules import Options
    from sim.trace import header
    deal = position(level, **spec)
    for name in ("random", "expert"):
        pol = fast_engine(name)
        for g in range(20):
            events = Game(level, 9, g, pol, Options(), deal).play().trace
            assert play_fast(level, 9, g, pol, Options(), deal)["trace"] == events
            follow([header("reference", level, 9, g, name, Options())] + events)


def test_the_game_log_of_a_position_adds_up():
    """The readable log (sim.play.render, ``friday replay``) of a game from a position counts
    the setup's discard among Robinson's cards and its hazard discard among the hazards: its
    score items add up to the trace's score (here no reshuffle shows the discard's cards)."""
    from helpers import position
    from sim.play.render import _Log, score_items
    deal = position(1, discard=[0, 1, 2, 29], hazard_stack=list(range(30, 41)),
                    hazard_discard=list(range(41, 51)), life=6)   # 51-58 removed
    for seed in (3, 11):
        game = played("reference", deal, level=1, seed=seed)
        log = _Log(game, False)
        log.run()
        assert log.disagreements == []
        assert sum(points for _, points, _ in score_items(game)) == game[-1]["score"]


def simulate(args, tmp_path, name, friday_here):
    """``friday simulate ARGS --traces NAME`` in this process; the games of the file."""
    result = friday_here(["simulate", "--quiet", "--seed", "7", *args, "--traces", name],
                         tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_batch_traces_are_the_same_bytes_whatever_the_threads_and_chunks(tmp_path, fast_engine,
                                                                          friday_here):
    """--traces FILE.jsonl.gz: one game per line, [header, events...], in the order of the
    results (level by level, game by game), readable by gzip; the same bytes for 1 and 2
    threads and for different chunks; each line ends as the game's row of --out does."""
    import pandas as pd
    fast_engine("expert")
    games = ["--level", "1,3", "--games", "40"]
    simulate([*games, "--threads", "1", "--out", "a.parquet"], tmp_path, "a.jsonl.gz",
             friday_here)
    simulate([*games, "--threads", "2", "--chunk", "7"], tmp_path, "b.jsonl.gz", friday_here)
    a, b = (tmp_path / "a.jsonl.gz").read_bytes(), (tmp_path / "b.jsonl.gz").read_bytes()
    assert a == b
    lines = gzip.decompress(a).decode("utf-8").splitlines()
    traces = [json.loads(line) for line in lines]
    assert [(t[0]["level"], t[0]["game"]) for t in traces] == [
        (lv, g) for lv in (1, 3) for g in range(40)]
    rows = pd.read_parquet(tmp_path / "a.parquet")
    assert [t[-1]["score"] for t in traces] == list(rows["score"])
    assert [t[-1]["won"] for t in traces] == list(rows["won"].astype(bool))
    for t in traces:
        follow(t)


def test_a_batch_line_is_the_game_s_replay_and_the_engines_agree(tmp_path, fast_engine,
                                                                  friday_here):
    """Line k of --traces (uncompressed .jsonl) is ``friday replay --format jsonl`` of that
    game, line for line; the reference engine writes the same events (its header says
    reference)."""
    fast_engine("random")
    common = ["--level", "4", "--games", "6", "--policy", "random"]
    simulate(common, tmp_path, "fast.jsonl", friday_here)
    simulate([*common, "--engine", "reference"], tmp_path, "ref.jsonl", friday_here)
    fast = [json.loads(x) for x in (tmp_path / "fast.jsonl").read_text().splitlines()]
    ref = [json.loads(x) for x in (tmp_path / "ref.jsonl").read_text().splitlines()]
    assert [t[1:] for t in fast] == [t[1:] for t in ref] and len(fast) == 6
    assert {t[0]["engine"] for t in ref} == {"reference"}
    replay = friday_here(["replay", "--level", "4", "--seed", "7", "--game", "5", "--policy",
                          "random", "--format", "jsonl", "--engine", "fast"], tmp_path)
    assert [json.loads(x) for x in replay.stdout.splitlines()] == fast[5]
    from sim.trace import read_traces
    assert list(read_traces(tmp_path / "fast.jsonl")) == fast


# (the options after `simulate --level 1 --games 5`, the one error line's words)
REFUSED = [
    (["--traces", "old.jsonl"], "--traces old.jsonl exists: choose another file or pass --force"),
    (["--traces", "t.json"], "--traces must end in .jsonl or .jsonl.gz, got 't.json'"),
    (["--traces", "t.gz"], "--traces must end in .jsonl or .jsonl.gz, got 't.gz'"),
    (["--traces", "dir.jsonl"], "--traces dir.jsonl is a folder"),
    (["--traces", "old.jsonl/t.jsonl"], "cannot write into old.jsonl: "),
    (["--traces", "t.jsonl", "--summary-only"], "--traces writes every game from this process"),
    (["--traces", "t.jsonl", "--cluster", "local:2"], "drop --summary-only and --cluster"),
    (["--traces", "t.jsonl", "--policy", "search", "--log-decisions", "log.parquet"],
     "run --log-decisions without it"),
]


@pytest.mark.parametrize("args, message", REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_a_traces_file_that_cannot_be_written_is_refused_before_any_game(args, message,
                                                                          tmp_path, friday_here):
    """Exit code 2, one ``error:`` line, nothing written, the old file untouched; the first
    case in a fresh process, as a user runs it."""
    (tmp_path / "old.jsonl").write_text("precious")
    (tmp_path / "dir.jsonl").mkdir()
    before = sorted(p.name for p in tmp_path.rglob("*"))
    cli = ["simulate", "--level", "1", "--games", "5", *args]
    result = run_cli(*cli, cwd=tmp_path) if args == REFUSED[0][0] else friday_here(cli, tmp_path)
    errors = [x for x in (result.stdout + result.stderr).splitlines() if x.startswith("error:")]
    assert result.returncode == 2 and len(errors) == 1, result.stdout + result.stderr
    assert message in errors[0] and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "old.jsonl").read_text() == "precious"


def test_force_overwrites_a_traces_file(tmp_path, fast_engine, friday_here):
    fast_engine("expert")
    (tmp_path / "t.jsonl").write_text("old")
    simulate(["--level", "2", "--games", "3", "--force"], tmp_path, "t.jsonl", friday_here)
    assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 3


class _CtrlCWhileJoined:
    """A range's lines whose joining (inside write_traces' write) gets a Ctrl-C."""

    def __init__(self, lines):
        self.lines = lines

    def __iter__(self):
        import signal
        signal.raise_signal(signal.SIGINT)
        for _ in range(100):            # Python runs the handler here, at a loop's jump
            pass
        return iter(self.lines)


def test_a_ctrl_c_while_a_range_is_written_waits_until_it_is_whole(tmp_path):
    """A second Ctrl-C (Python's own handler) while a range's lines are written: the range is
    written whole, then the run is told (as sim.lab.run.Run is, between ranges: it stops and
    keeps what finished) and nothing after it is written."""
    from sim.lab.run import Part
    from sim.lab.simulate import write_traces
    told = []

    def run():                          # Run.__iter__'s handling of a Ctrl-C, in short
        try:
            yield Part(1, 0, 1, [("rows 0", ["game 0\n"])])
            yield Part(1, 1, 2, [("rows 1", _CtrlCWhileJoined(["game 1\n", "game 2\n"]))])
            yield Part(1, 3, 1, [("rows 3", ["game 3\n"])])
        except KeyboardInterrupt:
            told.append("stop")

    with ctrl_c_as_in_a_terminal():             # Python's own handler (a background job's
        kept = write_traces(tmp_path / "t.jsonl", run())        # suite ignores SIGINT)
    assert (tmp_path / "t.jsonl").read_text() == "game 0\ngame 1\ngame 2\n"
    assert [p.results for p in kept] == [["rows 0"], ["rows 1"]] and told == ["stop"]


def test_a_run_stopped_before_its_first_range_writes_no_traces_file(tmp_path):
    """As no --out file is written then (simulate reports 0 games, exit 130)."""
    from sim.lab.simulate import write_traces
    assert write_traces(tmp_path / "t.jsonl.gz", iter(())) == []
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_keeps_the_traces_of_the_finished_games(tmp_path, fast_engine):
    """Ctrl-C once the run plays: exit 130, and the gzip file (complete, no partial file
    left) holds the trace of exactly the games reported and written to --out, in order."""
    import pandas as pd
    fast_engine("expert")
    run = interrupt_cli("simulate", "--level", "1", "--games", "100000000", "--out",
                        "games.parquet", "--traces", "t.jsonl.gz",
                        cues=[r"(?<![\d,])([3-9]|[1-9][\d,]+)/[\d,]+ games"], cwd=tmp_path)
    assert run.returncode == 130, run.stdout + run.stderr
    played = int(run.stdout.split(" games in ")[0].split()[-1].replace(",", ""))
    with gzip.open(tmp_path / "t.jsonl.gz", "rt") as lines:
        games = [json.loads(line)[0]["game"] for line in lines]
    assert games == list(range(played)) == list(pd.read_parquet(tmp_path / "games.parquet")
                                                ["game"])
    assert not list(tmp_path.glob(".*partial*"))
