"""A user's JSON file (a deal, a weights file, a JSON transcript, a training plan): the one
parser of its bytes or text, so that every reader says a bad one in the same words.

The bytes are UTF-8, with or without a byte-order mark (an editor's; skipped), line ends
LF, CRLF or CR.  Anything else is one UsageError line naming the file: not UTF-8 (the byte
and its place; ``UTF-16?`` or ``UTF-32?`` when the bytes start with such a mark or every other
one is NUL), a NUL byte (which JSON text never holds: not a text file), not valid JSON (line,
column and why), nested too deeply to read (Python's recursion limit), or, for a reader
that wants a JSON object, another value (named: a list, a string ...).  Which keys the object
must hold each reader checks itself.
"""
from __future__ import annotations

import json
import re

from .errors import UsageError

UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
SAVE_AS_UTF8 = "save it as UTF-8"
JSON_KIND = {list: "list", str: "string", int: "number", float: "number", bool: "true or false",
             type(None): "null", dict: "object"}


def parse_json(data: bytes | str, source: str, fix: str, argument: str | None = None,
               *, object_of: str | None = None, encoding_fix: str = SAVE_AS_UTF8):
    """The JSON value of ``data`` (bytes, or text already decoded), a leading byte-order mark
    skipped; else a UsageError ``{source} ...: {what is wrong}: {what to do}``: ``source``
    names the file, ``fix`` says what to do about bad JSON, ``encoding_fix`` about bytes that
    are not UTF-8 text, ``argument`` is the UsageError's.  With ``object_of`` (such as "a
    deal") the value must be a JSON object: ``{source} holds a JSON list, not a deal: {fix}``."""
    text = (_text(data, source, argument, encoding_fix) if isinstance(data, bytes) else
            data.removeprefix("\ufeff"))
    value = _loads(text, source, fix, argument)
    if object_of is not None and not isinstance(value, dict):
        raise UsageError(f"{source} holds a JSON {JSON_KIND.get(type(value), 'value')}, not "
                         f"{object_of}: {fix}", argument)
    return value


def _loads(text: str, source: str, fix: str, argument: str | None):
    """json.loads, its errors one UsageError line (parse_json)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        why = re.sub(r" (starting )?at$", "", exc.msg)      # its place is said before
        raise UsageError(f"{source}, line {exc.lineno}, column {exc.colno}: not valid JSON "
                         f"({why}): {fix}", argument) from None
    except ValueError as exc:                               # a number of over 4300 digits
        raise UsageError(f"{source}: not readable as JSON ({str(exc).split(':')[0]}): {fix}",
                         argument) from None
    except RecursionError:
        raise UsageError(f"{source}: JSON nested too deeply to read: {fix}", argument) from None


def _text(data: bytes, source: str, argument: str | None, fix: str) -> str:
    """UTF-8 ``data`` as text, without its byte-order mark, its line ends LF (as Python reads
    a text file: a bad one is placed at its line); a UsageError if not UTF-8 or holding a NUL
    byte, which JSON text never does."""
    skip = len(UTF8_BOM) if data.startswith(UTF8_BOM) else 0
    try:
        text, at = data[skip:].decode("utf-8"), data.find(b"\x00")
    except UnicodeDecodeError as exc:
        text, at = "", skip + exc.start
    if at < 0:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    line, column = place(data[skip:at].decode("utf-8", errors="replace"))
    where = f"offset {at}, line {line}, column {column}"
    if data.startswith(UTF32_BOMS):
        why = "UTF-32? it starts with a UTF-32 byte-order mark"
    elif data.startswith(UTF16_BOMS):
        why = "UTF-16? it starts with a UTF-16 byte-order mark"
    elif _utf16_like(data):
        why = "UTF-16? every other byte is NUL"
    elif data[at] == 0:
        raise UsageError(f"{source} holds a NUL byte ({where}): not a text file: {fix}",
                         argument)
    else:
        why = f"byte 0x{data[at]:02x} at {where}"
    raise UsageError(f"{source} is not UTF-8 text ({why}): {fix}", argument)


def _utf16_like(data: bytes) -> bool:
    """Whether the first bytes are ASCII written as UTF-16: every other one NUL."""
    head = data[:64] if len(data) >= 64 else data[:len(data) // 2 * 2]
    return len(head) >= 2 and (not any(head[0::2]) or not any(head[1::2]))


def place(before: str) -> tuple[int, int]:
    """(line, column), from 1, of the character after the text ``before``."""
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
