"""transcript: the one reader of a table transcript, and what a transcript may be.

A transcript is the moves of one game, as a person writes them down at a table or
``friday play --save`` writes them: one move per line (``fight:31``, ``draw``, ``end``...;
``#`` starts a comment), or a JSON list of the same strings; a table's later shuffle goes
where it happened (``robinson_reshuffle: 17 49 14``, R7.1; ``hazard_reshuffle: 40 58``,
R8.1; top first).  ``friday replay``, ``friday review``, ``friday play`` (which continues
one) and ``ScriptedPolicy.from_file`` all read it here, and all give the same answers:

* the text is UTF-8, with or without a byte-order mark, or UTF-16 with its mark (Notepad's
  "Unicode"); anything else (another encoding, a control character, a binary file) is a
  UsageError naming the file, line and column;
* a file without a move (empty, or comments only) is refused;
* a transcript that ends before the game does is a position: the game up to its last move,
  to continue (``friday play --actions``) or to review (``ends_early``);
* a move after the game's end is refused, naming the move and where the game ended
  (``after_the_end``, a RuleError); an illegal move, naming its line and the legal actions.

Text quoted from a file is cut to ``SHOWN`` characters (``shown``).
"""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from sim.actions import FAMILIES, SIMPLE_NAMES, action_id
from sim.cards import N_CARDS
from sim.errors import FridayError, RuleError, UsageError
from sim.userjson import parse_json, place

SHOWN = 80                      # characters of a file's text quoted in a message, at most
MAX_BYTES = 1 << 20             # a game's moves are a few kilobytes: larger is no transcript
SHUFFLE_LINES = {"robinson_reshuffle": "robinson_reshuffles",
                 "hazard_reshuffle": "hazard_reshuffles"}
BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
JSON_MOVES = 'a JSON list of moves holds strings, e.g. ["fight:31", "draw"]'
MOVE_WORDS = (f"a move is {', '.join(SIMPLE_NAMES)} or FAMILY:CARD ({', '.join(FAMILIES)}; "
              f"CARD 0..{N_CARDS - 1}), one per line")


def shown(text: str, limit: int = SHOWN) -> str:
    """``text`` as a message quotes it: repr (control characters escaped), cut to ``limit``
    characters with an ellipsis."""
    text = str(text)
    return repr(text) if len(text) <= limit else repr(text[:limit - 3]) + "..."


def cut(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis at the end where it was cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass(frozen=True)
class Move:
    """One move: its name, its action id and where the transcript has it (``line 12``)."""
    name: str
    action: int
    where: str


class MovesRanOut(UsageError):
    """A scripted player was asked for a move after its last one: the transcript ends before
    the game does (a position, not a mistake, for ``replay``, ``review`` and ``play``), at a
    ``phase`` decision of turn ``turn`` whose legal actions are ``legal`` (names)."""

    def __init__(self, message: str, phase: str = "", turn: int = 0, legal=()):
        super().__init__(message, "actions")
        self.phase, self.turn, self.legal = phase, turn, list(legal)


@dataclass
class Transcript:
    """The moves of one game (``moves``) and the table's later shuffles (``shuffles``: the
    sim.deal keys ``robinson_reshuffles``, ``hazard_reshuffles``); ``source`` names it."""
    source: str
    moves: list[Move] = field(default_factory=list)
    shuffles: dict[str, list[list[int]]] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.moves]

    @property
    def ids(self) -> list[int]:
        return [m.action for m in self.moves]

    def with_shuffles(self, deal: dict | None) -> dict | None:
        """``deal`` (a deal dict, or None) with the table's shuffles of the transcript."""
        if not self.shuffles:
            return deal
        both = sorted(set(self.shuffles) & set(deal or {}))
        if both:
            raise UsageError(f"{self.source} and the deal both give {both[0]}: give the "
                             f"table's shuffles in one of them")
        return {**(deal or {}), **self.shuffles}

    def at(self, i: int) -> str:
        """Where move ``i`` (from 0) is: ``moves.txt, line 12``."""
        return f"{self.source}, {self.moves[i].where}"

    def after_the_end(self, played: int, end: dict) -> RuleError:
        """The error of a move after the game's end: ``played`` moves ended it; ``end``, its
        ``game_end`` event (docs/TRACE.md) or result, says how (won, step, score)."""
        extra = self.moves[played]
        more = len(self.moves) - played - 1
        after = f"; {more} more move{'s' if more > 1 else ''} after it" if more else ""
        how = f"{'won' if end['won'] else 'lost'} in the {end['step']} step, score {end['score']}"
        return RuleError(f"{self.at(played)}: move {played + 1} ({extra.name}) comes after the "
                         f"game's end: the game ended at move {played} ({how}){after}")

    def illegal(self, i: int, decision: str, legal: list[str]) -> RuleError:
        """The error of move ``i`` (from 0), which the rules forbid at ``decision`` (``at a
        fight decision (step green, turn 1)``), where ``legal`` are legal."""
        return RuleError(f"{self.at(i)}: move {i + 1} chose {self.moves[i].name!r} {decision}: "
                         f"not a legal action; legal: {', '.join(legal)}")

    def ends_early(self, phase: str, turn: int, legal: list[str]) -> str:
        """The note of a transcript that stops before the game's end: where, and what then."""
        last = f" ({self.moves[-1].where})" if self.moves else ""
        return (f"{self.source}: the moves end before the game does, after move "
                f"{len(self.moves)}{last}, at a {phase} decision of turn {turn}; legal there: "
                f"{', '.join(legal)}")


# --- reading ------------------------------------------------------------------------------
def read_transcript(path) -> Transcript:
    """The transcript in the file ``path`` (module docstring); UsageError (``actions``) for
    a file that is missing, unreadable, too large, not text or holds no move."""
    file = Path(path)
    name = shown(str(path))
    if file.is_dir():
        raise UsageError(f"actions file {name} is a directory, not a file of moves", "actions")
    if not file.exists():
        raise UsageError(f"actions file {name} not found", "actions")
    try:
        with open(file, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"actions file {name} cannot be read: {exc.strerror or exc}",
                         "actions") from None
    if len(data) > MAX_BYTES:
        raise UsageError(f"actions file {name} holds over {MAX_BYTES:,} bytes: a game's moves "
                         "are a few kilobytes (is it the right file?)", "actions")
    source = file.name if len(file.name) <= SHOWN else shown(file.name)
    text = decode(data, source)
    start = text.lstrip()
    if start.startswith("{"):
        raise UsageError(f"{source} is a JSON object (a deal file?), not a list of moves: "
                         "a deal goes with --deal", "actions")
    t = from_json(text, source) if start.startswith("[") else from_lines(text.split("\n"),
                                                                          source)
    if not t.moves:
        raise UsageError(f"{source} holds no move (" + ("only table shuffles" if t.shuffles else
                         "an empty file, or comments only") + f"): {MOVE_WORDS}", "actions")
    return t


def decode(data: bytes, source: str) -> str:
    """The text of a file's bytes: UTF-8 (with or without its mark) or UTF-16 with its mark;
    line ends \\n, \\r\\n or \\r; no control character but tabs."""
    codec, skip = next(((enc, len(bom)) for bom, enc in BOMS if data.startswith(bom)),
                       ("utf-8", 0))
    try:
        text = data[skip:].decode(codec)
    except UnicodeDecodeError as exc:
        line, column = place(data[skip:skip + exc.start].decode(codec, errors="replace"))
        what = (f"byte 0x{data[skip + exc.start]:02x} is not UTF-8" if codec == "utf-8"
                else "not UTF-16 (an odd number of bytes, or half a pair)")
        raise UsageError(f"{source}, line {line}, column {column}: {what}: save the moves as "
                         "UTF-8 (or UTF-16 with its byte-order mark)", "actions") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for i, ch in enumerate(text):
        if ch not in "\n\t" and unicodedata.category(ch) == "Cc":
            line, column = place(text[:i])
            raise UsageError(f"{source}, line {line}, column {column}: control character "
                             f"U+{ord(ch):04X}: not a text file of moves (binary, or UTF-16 "
                             "without its byte-order mark?)", "actions")
    return text


def from_lines(lines, source: str = "actions", where: str = "line") -> Transcript:
    """A transcript of text lines (``#`` starts a comment, blank lines skipped): each line
    one move or one table shuffle; ``where`` names a line in messages (``line 3``)."""
    t = Transcript(source)
    for n, raw in enumerate(lines, 1):
        text = str(raw).split("#", 1)[0]
        token = text.strip()
        if token:
            column = text.index(token[0]) + 1 if where == "line" else None
            _add(t, token, f"{where} {n}", column)
    return t


def from_json(text: str, source: str) -> Transcript:
    """A transcript of a JSON list of strings, each one line of a text transcript (the JSON
    read by sim.userjson: a bad one placed at its line and column)."""
    items = parse_json(text, source, JSON_MOVES, "actions")
    if not isinstance(items, list):
        raise UsageError(f"{source}: not a JSON list of moves", "actions")
    for i, item in enumerate(items, 1):
        if not isinstance(item, str):
            raise UsageError(f"{source}, item {i}: {shown(json.dumps(item))} is not a move: "
                             f"{JSON_MOVES}", "actions")
    return from_lines(items, source, "item")


def of(actions, source: str = "actions") -> Transcript:
    """A transcript of a list of moves from Python: names (lines of a transcript) or action
    ids; a Transcript as it is."""
    if isinstance(actions, Transcript):
        return actions
    if isinstance(actions, (str, bytes)):
        raise UsageError("actions must be a list of moves, not one string", "actions")
    t = Transcript(source)
    for n, a in enumerate(actions, 1):
        if isinstance(a, str):
            token = a.split("#", 1)[0].strip()
            if token:
                _add(t, token, f"action {n}", None)
        else:
            t.moves.append(Move(_name_of_id(a, n), int(a), f"action {n}"))
    return t


def _name_of_id(a, n: int) -> str:
    from sim.actions import action_name
    try:
        if isinstance(a, bool) or int(a) != a:
            raise ValueError
        return action_name(int(a))
    except (ValueError, TypeError, FridayError):
        raise UsageError(f"action {n} ({cut(repr(a))}) is not a move: give action names or "
                         "ids",
                         "actions") from None


def _add(t: Transcript, token: str, where: str, column: int | None):
    """One line's move or shuffle, added to ``t``; a UsageError naming where it is."""
    place = f"{t.source}, {where}" + (f", column {column}" if column else "")
    kind, colon, cards = token.partition(":")
    if colon and kind.strip() in SHUFFLE_LINES:
        try:
            order = [int(c) for c in cards.replace(",", " ").split()]
        except ValueError:
            raise UsageError(f"{place}: {shown(token)}: a shuffle lists card ids, top first, "
                             f"e.g. '{kind.strip()}: 17 49 14'", "actions") from None
        t.shuffles.setdefault(SHUFFLE_LINES[kind.strip()], []).append(order)
        return
    try:
        action = action_id(token)
    except FridayError:
        guess = token.lower().replace(" ", "")
        hint = f" (did you mean '{guess}'?)" if _is_move(guess) else ""
        raise UsageError(f"{place}: unknown action {shown(token)}{hint}: {MOVE_WORDS}",
                         "actions") from None
    t.moves.append(Move(token, action, where))


def _is_move(token: str) -> bool:
    try:
        action_id(token)
        return True
    except FridayError:
        return False
