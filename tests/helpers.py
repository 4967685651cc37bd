"""Helpers for the rules tests: build deals, play scripted lines, inspect.

A rule test is a deal, a script of actions and the expected trace and legal actions, in the
manner of OpenSpiel's playthroughs (tests/playthrough.py): ``play`` and ``deal_fight`` play it
on the reference engine (whose zones the test then inspects) and replay the same deal and
actions on the fast engine, which must write the same trace and offer the same legal actions
at every decision, also where the script ran out (``same_on_fast_engine``).  A situation no
set-up gives (knowledge cards or any aging cards in the Robinson stack, discard piles, removed
cards, a short hazard stack, a chosen life, a later step) is a position (sim.deal: a deal that
starts mid-game), played the same way: ``position``, ``play_position``, ``position_fight``.

Card ids (sim.cards): 0-4 distracted(-1), 5-12 weak(0), 13-15 focused(+1), 16 genius(+2),
17 eating(0, life_plus2); aging 18 distracted(-1), 19-20 stupid(-2), 21 very stupid(-3),
22 hungry(life-1), 23-24 scared(highest_zero), 25 very tired(stop), 26 moronic(-4),
27 suicidal(-5), 28 very hungry(life-2); hazards 29-58; pirates 59-68.

The command as a user runs it, in a fresh process: ``run_cli`` (``run_python`` for a script or
``-c`` code), and Ctrl-C sent as a terminal sends it, once the command shows that its long work
has begun: ``interrupt_cli``.
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import sim.cards as C
import sim.observation as O
from policies.scripted import ScriptedPolicy
from sim.actions import action_name
from sim.reference import Game
from sim.errors import UsageError
from sim.rules import GREEN, PIRATES, RED, STEP_NAMES, Options, start_life

# readable names for the card ids used in the tests
DISTRACTED = [0, 1, 2, 3, 4]
WEAK = [5, 6, 7, 8, 9, 10, 11, 12]
FOCUSED = [13, 14, 15]
GENIUS = 16
EATING = 17
A_DISTRACTED, STUPID1, STUPID2, VERY_STUPID, HUNGRY = 18, 19, 20, 21, 22
SCARED1, SCARED2, VERY_TIRED, MORONIC, SUICIDAL, VERY_HUNGRY = 23, 24, 25, 26, 27, 28
# hazards: (raft: free 1, values 0/1/3), (exploring: free 2, 1/3/6), (further: free 3, 2/5/8),
# (wild animals: free 4, 4/7/11), (cannibals: free 5, 5/9/14)
RAFT_FOOD, RAFT_FOOD2, RAFT_EQUIP, RAFT_EQUIP2 = 29, 30, 31, 32      # value 0: life+1 / draw+2
RAFT_STRATEGY, RAFT_STRATEGY2 = 33, 34                              # exchange2
# destroy, below_pile, copy, step_minus1
RAFT_REALIZATION, RAFT_DECEPTION, RAFT_MIMICRY, RAFT_BOOKS = 35, 36, 37, 38
EXP_FOOD, EXP_FOOD2, EXP_WEAPON, EXP_WEAPON2 = 39, 40, 41, 42       # +1 life+1, +2, +2
EXP_REALIZATION, EXP_DECEPTION, EXP_MIMICRY, EXP_REPEAT = 43, 44, 45, 46  # +1 each
FUR_FOOD, FUR_REALIZATION, FUR_STRATEGY, FUR_EXPERIENCE = 47, 48, 49, 50  # +2 each
FUR_REPEAT, FUR_VISION = 51, 52                                           # +2 double, +2 sort3
WILD_REALIZATION, WILD_STRATEGY, WILD_EXPERIENCE, WILD_VISION = 53, 54, 55, 56  # +3
CANNIBALS, CANNIBALS2 = 57, 58                                      # weapon +4
P_6_20, P_7_25, P_8_30, P_9_35, P_10_40 = 59, 60, 61, 62, 63
P_COST2, P_HALF, P_PLUS1, P_AGING, P_REMAINING = 64, 65, 66, 67, 68


def in_game_aging(level: int) -> list[int]:
    return [c for c in C.AGING_IDS if level >= 3 or c != C.VERY_STUPID]


def make_deal(level: int = 1, robinson=(), hazards=(), aging=None, pirates=(P_6_20, P_7_25),
              setup_aging: int | None = None) -> dict:
    """A complete deal (all stacks top first).  ``robinson``: the top of the Robinson stack;
    the remaining start cards follow in id order.  At level 2+ one aging card must be in the
    Robinson stack: the one listed in ``robinson`` or ``setup_aging`` (default: the first
    normal aging card not used elsewhere), put at the bottom.  ``hazards``: the top of the
    hazard stack, the rest follow in id order.  ``aging``: the top of the aging stack, the rest
    follow in id order."""
    robinson, hazards = list(robinson), list(hazards)
    aging = list(aging or [])
    rest = [c for c in C.START_IDS if c not in robinson]
    robinson = robinson + rest
    if level >= 2 and not any(C.IS_AGING[c] for c in robinson):
        if setup_aging is None:
            setup_aging = next(c for c in in_game_aging(level) if c not in aging)
        robinson.append(setup_aging)
    aging = aging + [c for c in in_game_aging(level) if c not in aging and c not in robinson]
    hazards = hazards + [c for c in C.HAZARD_IDS if c not in hazards]
    return {"robinson_stack": robinson, "aging_stack": aging, "hazard_stack": hazards,
            "pirates": list(pirates)}


class RecordingGame(Game):
    """The reference Game, noting at each decision the observation (``obs_seen``), the legal
    actions (``legal_seen``) and the action taken (``taken``), as names: what the fast engine
    must show and offer, and is given."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.obs_seen: list = []
        self.legal_seen: list[list[str]] = []
        self.taken: list[str] = []

    def decide(self, phase, legal):
        self.obs_seen.append(self.observation(phase))
        self.legal_seen.append([action_name(a) for a in sorted(legal)])
        action = super().decide(phase, legal)
        self.taken.append(action_name(action))
        return action


def new_game(actions, level=1, deal=None, options=None, seed=0, policy=None) -> RecordingGame:
    return RecordingGame(level, seed, 0, policy or ScriptedPolicy(actions), options or Options(),
                         deal=deal)


def position(level: int = 1, robinson=None, discard=(), aging=None, hazard_stack=None,
             hazard_discard=(), pirates=(P_6_20, P_7_25), life=None, step=GREEN) -> dict:
    """A position (sim.deal: a deal that starts mid-game).  Stacks top first, the discards
    bottom first (as the engine's zones read).  A stack not given holds make_deal(level)'s
    cards of it that no given zone holds; the cards placed nowhere are removed (out of the
    game).  ``step``: GREEN, YELLOW, RED, or PIRATES = red with an empty hazard stack (the
    red step ends at once, R8.1, and the pirates come, R8.2)."""
    if step == PIRATES:
        step, hazard_stack = RED, []
    base = make_deal(level)
    zones = {"robinson_stack": robinson, "robinson_discard": list(reversed(discard)),
             "aging_stack": aging, "hazard_stack": hazard_stack,
             "hazard_discard": list(reversed(hazard_discard))}
    explicit = {c for cards in zones.values() if cards is not None for c in cards}
    pos = {key: list(cards) if cards is not None else
           [c for c in base[key] if c not in explicit] for key, cards in zones.items()}
    placed = {c for cards in pos.values() for c in cards}
    pos["removed"] = [c for c in list(C.START_IDS) + in_game_aging(level) + list(C.HAZARD_IDS)
                      if c not in placed]
    pos.update(pirates=list(pirates), life=start_life(level)[0] if life is None else life,
               step=STEP_NAMES[step])
    return pos


def play_position(actions, level=1, options=None, seed=0, policy=None, **spec) -> Game:
    """``play`` from ``position(level, **spec)`` (both engines)."""
    return play(actions, level, position(level, **spec), options, seed, policy)


def position_fight(actions, opponent=53, level=1, options=None, seed=0, **spec) -> Game:
    """The first fight of a position (``position(level, **spec)``), on both engines
    (``play``): a hazard ``opponent`` is put on top of the hazard stack and fought (R3.1: the
    next card, drawn with it, goes to the hazard discard); a pirate is fought first (R9.1;
    spec step=PIRATES).  Then ``actions``."""
    if opponent in C.PIRATE_IDS:
        spec.setdefault("step", PIRATES)
        if opponent not in spec.get("pirates", ()):
            spec["pirates"] = [opponent, P_7_25 if opponent == P_6_20 else P_6_20]
        first = f"pirate:{opponent}"
    else:
        pos = position(level, **spec)
        spec["hazard_stack"] = [opponent] + [c for c in pos["hazard_stack"] if c != opponent]
        spec["hazard_discard"] = [c for c in spec.get("hazard_discard", ()) if c != opponent]
        first = f"fight:{opponent}"
    return play([first] + list(actions), level, position(level, **spec), options, seed)


def play(actions, level=1, deal=None, options=None, seed=0, policy=None, **deal_kw) -> Game:
    """Play a scripted game from a deal (``deal``, else ``make_deal(level, **deal_kw)``) on
    both engines.  If the script runs out, the game is left as it was at that decision:
    ``g.stopped`` is True and ``g.stop_message`` holds the error (which lists the legal
    actions at that point).  Otherwise the game ended (``g.stopped`` False).  Then the fast
    engine replays it (``same_on_fast_engine``)."""
    if deal is None:
        deal = make_deal(level, **deal_kw)
    g = play_until_stop(new_game(actions, level, deal, options, seed, policy))
    same_on_fast_engine(g)
    return g


def deal_fight(actions, opponent=53, level=1, other=None, **kw) -> Game:
    """A fight in the green step from a deal, on both engines (``play``): the hazard stack
    starts with ``opponent`` and ``other`` (default raft #29, or #30 against #29), the player
    fights ``opponent`` (R3.1, ``other`` goes to the hazard discard) and then plays
    ``actions``.  ``kw``: ``robinson`` (the top of the Robinson stack: start cards, and from
    level 2 one normal aging card), ``options``, ``seed``, other ``make_deal`` keywords."""
    if other is None:
        other = 30 if opponent == 29 else 29
    return play([f"fight:{opponent}"] + list(actions), level=level, hazards=[opponent, other],
                **kw)


def same_on_fast_engine(g: RecordingGame):
    """The fast engine (sim.fast.play_fast), given g's level, seed, options, deal and the
    actions g's script took, writes g's trace event for event, and shows g's observation and
    offers g's legal actions at every decision, the one where the script ran out included."""
    from sim.fast import play_fast
    f = play_fast(g.level, g.seed, g.game_index, None, g.options, g.deal, actions=g.taken,
                  record=True, stop_when_out=True)
    assert f["stopped"] == g.stopped, f"fast engine stopped: {f['stopped']}"
    i = _first_difference(f["trace"], g.trace)
    assert f["trace"] == g.trace, (f"trace differs at event {i}: fast {f['trace'][i:i + 2]}, "
                                   f"reference {g.trace[i:i + 2]}")
    legal = [[action_name(a) for a in at] for at in f["legal"]]
    assert legal == g.legal_seen, (
        f"legal actions differ at decision {_first_difference(legal, g.legal_seen)}: fast "
        f"{legal}, reference {g.legal_seen}")
    same = [bool(np.array_equal(a, b)) for a, b in zip(f["observations"], g.obs_seen)]
    assert all(same), f"observation {same.index(False)} differs: " + str(
        _obs_difference(f["observations"][same.index(False)], g.obs_seen[same.index(False)]))


def _obs_difference(fast, reference) -> dict:
    a, b = O.describe(fast), O.describe(reference)
    return {key: (a[key], b[key]) for key in a if a[key] != b[key]}


def same_setup_on_fast_engine(g: Game):
    """The fast engine, given g's level, seed, options and deal (None: the seed's set-up),
    sets up the same game: its trace starts with g's (the setup and step events, R2)."""
    from sim.fast import play_fast
    f = play_fast(g.level, g.seed, g.game_index, None, g.options, g.deal, actions=[],
                  stop_when_out=True)
    assert f["trace"][:len(g.trace)] == g.trace, (f["trace"][:2], g.trace)


def _first_difference(a: list, b: list) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def play_until_stop(g) -> Game:
    """g.play(); a script running out sets ``g.stopped`` and ``g.stop_message``."""
    g.stopped, g.stop_message = False, ""
    try:
        g.play()
    except UsageError as exc:
        if "ran out" not in str(exc):
            raise
        g.stopped, g.stop_message = True, str(exc)
    return g


def legal_at_stop(g) -> list[str]:
    """The legal actions listed when the script ran out."""
    assert g.stopped, "the game did not stop on an exhausted script"
    return [a.strip() for a in g.stop_message.split("legal:", 1)[1].split(",")]


def events(g, name: str) -> list[dict]:
    return [e for e in g.trace if e["e"] == name]


def last(g, name: str) -> dict:
    ev = events(g, name)
    assert ev, f"no {name} event in the trace"
    return ev[-1]


def zones(g) -> dict[str, list[int]]:
    """Every zone a card can be in (for conservation checks)."""
    z = {"robinson_stack": g.robinson_stack, "robinson_discard": g.robinson_discard,
         "aging_stack": g.aging_stack, "hazard_stack": g.hazard_stack,
         "hazard_discard": g.hazard_discard, "hazards_drawn": g.hazards_drawn,
         "removed": g.removed, "out_of_game": g.out_of_game, "pirates": g.pirates,
         "sort_hand": g.sort_hand,
         # the 8 pirates not drawn at set-up (R2.4) are in no engine zone (observation: out)
         "unused_pirates": [p for p in C.PIRATE_IDS if p not in g.pirates]}
    if g.fight is not None:
        z["fight_left"] = g.fight.left
        z["fight_right"] = g.fight.right
        over = bool(g.trace) and g.trace[-1]["e"] == "game_end"
        if not over:      # after a lost game Game.play puts the hazard on the discard (R4.10)
            z["opponent"] = [g.fight.opponent]
    return z


def check_conservation(g):
    """Every one of the 69 cards in exactly one zone.  A pirate stays in ``pirates`` while
    being fought (it is also the fight's opponent) and after being beaten."""
    seen: dict[int, list[str]] = {}
    for name, cards in zones(g).items():
        for c in cards:
            if name == "opponent" and c in g.pirates:
                continue
            seen.setdefault(c, []).append(name)
    bad = {c: w for c, w in seen.items() if len(w) != 1}
    missing = [c for c in range(C.N_CARDS) if c not in seen]
    assert not bad and not missing, f"card conservation broken: dupes {bad}, missing {missing}"


class AutoPolicy:
    """A test policy: plays ``prefix`` (action names) first, then a fixed simple rule:
    hazard -> skip if legal, else the lowest fight:<c>; fight -> draw, else end, else the
    first legal; elsewhere 'done' if legal, else the first legal.  With ``stop_at`` (a
    phase name, e.g. 'pirate') it stops there like an exhausted script."""

    name = "auto"

    def __init__(self, prefix=(), stop_at=None):
        from sim.actions import action_id
        self.prefix = [action_id(a) for a in prefix]
        self.stop_at = stop_at
        self.position = 0

    def reset(self, seed, game):
        self.position = 0

    def choose(self, obs, legal, n_legal):
        from sim.actions import A_DONE, A_DRAW, A_END, A_SKIP
        legal = [int(a) for a in legal[:n_legal]]
        phase = O.PHASE_NAMES[int(obs[O.O_PHASE])]
        if self.position < len(self.prefix):
            self.position += 1
            return self.prefix[self.position - 1]
        if phase == self.stop_at:
            raise UsageError(f"auto: the action list ran out at a {phase} decision; legal: "
                             + ", ".join(action_name(a) for a in legal))
        for preferred in ((A_SKIP,) if phase == "hazard" else (A_DRAW, A_END) if phase == "fight"
                          else (A_DONE,)):
            if preferred in legal:
                return preferred
        return legal[0]


ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 900           # s: a command that hangs fails its test; a loaded machine still passes
# interrupt_cli's cue that a run of games (or the gathering of a training round) has
# finished its first range: the progress bar, on a terminal, counts it (e.g. "412/1000 games")
COUNTED = r"(?<![\d,])[1-9][\d,]*/[\d,]+ games"


def fresh_env(env=None) -> dict:
    """This process's environment, this checkout first on PYTHONPATH, then ``env``'s entries
    (a value None removes the variable)."""
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), out.get("PYTHONPATH")]))
    for name, value in (env or {}).items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = str(value)
    return out


def run_python(*args, cwd=None, env=None, input="", timeout=TIMEOUT) -> subprocess.CompletedProcess:
    """``python *args`` (a script, ``-c`` code, ``-m`` module) in a fresh process of this
    interpreter, with this checkout on PYTHONPATH (``fresh_env(env)``), standard input
    ``input``: returncode, stdout and stderr as text.  A process still running after
    ``timeout`` s is killed and the test fails, showing what it printed."""
    argv = [sys.executable, *map(str, args)]
    try:
        return subprocess.run(argv, cwd=cwd, env=fresh_env(env), input=input, text=True,
                              capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{argv} still ran after {timeout} s:\n{_text(exc.stdout)}{_text(exc.stderr)}")


def run_cli(*args, **kw) -> subprocess.CompletedProcess:
    """The friday command, ``python -m sim.cli *args``, in a fresh process (``run_python``)."""
    return run_python("-m", "sim.cli", *args, **kw)


@contextlib.contextmanager
def ctrl_c_as_in_a_terminal():
    """Processes started inside get SIGINT at its default, as a command typed at a terminal
    has it (Python then raises KeyboardInterrupt): a suite started as a script's background
    job (``pytest ... &``) ignores SIGINT, and its children would inherit that.  Caught here
    for the while (exec resets a caught signal to its default), then as it was."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.default_int_handler) if main else None
    try:
        yield
    finally:
        if before is not None:                                  # None: a handler set in C
            signal.signal(signal.SIGINT, before)


def interrupt_cli(*args, cues, cwd=None, env=None, timeout=TIMEOUT) -> subprocess.CompletedProcess:
    """Ctrl-C as a terminal sends it, to the friday command in a fresh process (``run_cli``)
    with its standard error on a pseudo-terminal (it draws what a user sees, the progress bar
    included), standard output unbuffered, standard input open and empty: for each of ``cues``
    (regular expressions) in turn, once the command has printed a match (on standard output or
    error), SIGINT to the command's whole process group.  Returns the finished process's
    returncode, stdout and stderr (all of it, as shown: ``\\n`` line ends, no colours).  The
    command ending before a cue, or running after ``timeout`` s, fails the test with its
    output (no time is asserted: a loaded machine passes)."""
    import pty                          # POSIX only: imported by the tests that interrupt
    master, slave = pty.openpty()
    with ctrl_c_as_in_a_terminal():
        proc = subprocess.Popen([sys.executable, "-m", "sim.cli", *map(str, args)], cwd=cwd,
                                env=fresh_env({"PYTHONUNBUFFERED": "1", **(env or {})}),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave,
                                start_new_session=True)
    os.close(slave)
    seen = threading.Condition()
    streams = [_Stream(proc.stdout.fileno(), seen), _Stream(master, seen)]
    deadline = time.monotonic() + timeout
    try:
        for cue in cues:
            _wait_for(cue, streams, seen, deadline, proc)
            os.killpg(proc.pid, signal.SIGINT)
        with seen:
            seen.wait_for(lambda: all(s.ended for s in streams), deadline - time.monotonic())
        proc.wait(timeout=max(deadline - time.monotonic(), 1))
        late = False
    except subprocess.TimeoutExpired:
        late = True
    finally:
        group_left = not late and _group_alive(proc.pid)
        with contextlib.suppress(ProcessLookupError):   # what is left of the group, if any
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        for s in streams:
            s.thread.join()
        os.close(master)
        proc.stdin.close()
        proc.stdout.close()
    if late:
        pytest.fail(f"still running after {timeout} s:\n" + _shown(streams))
    done = subprocess.CompletedProcess(proc.args, proc.returncode, streams[0].text(),
                                       streams[1].text())
    done.group_left = group_left        # a process of its group outlived the command
    return done


def _group_alive(pgid: int, grace: float = 30.0) -> bool:
    """Whether a process of group ``pgid`` other than its leader is still alive ``grace``
    seconds after the command ended (workers being stopped take a moment to go)."""
    deadline = time.monotonic() + grace
    while _group_member_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _group_member_alive(pgid)


def _group_member_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` other than its leader (not a zombie) is alive."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    import glob
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z" and int(Path(stat).parent.name) != pgid:
            return True
    return False


class _Stream:
    """What a process writes on one file descriptor, read by a thread to its end (a pipe's
    end of file, or a pseudo-terminal's EIO once no process holds it)."""

    def __init__(self, fd, seen: threading.Condition):
        self.data, self.ended, self.seen = bytearray(), False, seen
        self.thread = threading.Thread(target=self._read, args=(fd,), daemon=True)
        self.thread.start()

    def _read(self, fd):
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            with self.seen:
                self.data += chunk
                self.ended = not chunk
                self.seen.notify_all()
            if not chunk:
                return

    def text(self) -> str:
        """The text shown, without the terminal's control sequences (colours, cursor moves)."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.data.decode(errors="replace")
                      .replace("\r\n", "\n"))


def _wait_for(cue: str, streams, seen, deadline, proc):
    """Until one of ``streams`` shows ``cue``; the test fails if the process ends before."""
    def shown():
        return any(re.search(cue, s.text()) for s in streams) or all(s.ended for s in streams)
    with seen:
        seen.wait_for(shown, max(deadline - time.monotonic(), 0))
    if not any(re.search(cue, s.text()) for s in streams):
        if proc.poll() is None and not all(s.ended for s in streams):
            raise subprocess.TimeoutExpired(proc.args, 0)
        pytest.fail(f"the command ended before its cue {cue!r}:\n" + _shown(streams))


def _shown(streams) -> str:
    return "\n".join(f"--- {name}:\n{s.text()[-5000:]}" for name, s in zip(("stdout", "stderr"),
                                                                           streams))


def _text(data) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else data or ""


def fails_in_every_way(policy, said: str, *more):
    """Game 0 of level 1, seed 1 with ``policy`` raises a PolicyError matching ``said`` in
    every way to play it: the batch, play_fast, a ``sim.Game`` asking the policy at each
    decision, and each of ``more`` (callables)."""
    from sim import Game as FastGame
    from sim.contract import PolicyError
    from sim.fast import play_fast, run_batch

    def with_game():
        g = FastGame.new(level=1, seed=1, game=0)
        while not g.is_over:
            g.step(g.policy_action(policy))
    for play in (lambda: run_batch(1, 1, 0, 2, policy, threads=1),
                 lambda: play_fast(1, 1, 0, policy), with_game, *more):
        with pytest.raises(PolicyError, match=said):
            play()
