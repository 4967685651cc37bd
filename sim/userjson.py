"""A user's JSON file (a deal, a weights file, a JSON transcript, a training plan): the one
parser of its bytes or text, so that every reader says a bad one in the same words.

The bytes are UTF-8, with or without a byte-order mark (an editor's; skipped).  Anything else
is one UsageError line naming the file: not UTF-8 (the byte and its offset; ``UTF-16?`` when
the bytes start with a UTF-16 mark or hold NUL bytes, which JSON text never does), not valid
JSON (line, column and why), or nested too deeply to read (Python's recursion limit).  What
the value must be (an object, a list, which keys) each reader checks itself.
"""
from __future__ import annotations

import json
import re

from .errors import UsageError

UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
SAVE_AS_UTF8 = "save it as UTF-8"


def parse_json(data: bytes | str, source: str, fix: str, argument: str | None = None):
    """The JSON value of ``data`` (bytes, or text already decoded), a leading byte-order mark
    skipped; else a UsageError ``{source} ...: {what is wrong}: {what to do}``: ``source``
    names the file, ``fix`` says what to do about bad JSON (bad encoding: save it as UTF-8),
    ``argument`` is the UsageError's."""
    text = (_text(data, source, argument) if isinstance(data, bytes) else
            data.removeprefix("\ufeff"))
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


def _text(data: bytes, source: str, argument: str | None) -> str:
    """UTF-8 ``data`` as text, without its byte-order mark; a UsageError if not UTF-8 (or
    holding a NUL byte, which JSON text never does)."""
    skip = len(UTF8_BOM) if data.startswith(UTF8_BOM) else 0
    try:
        text, at = data[skip:].decode("utf-8"), data.find(b"\x00")
    except UnicodeDecodeError as exc:
        text, at = "", skip + exc.start
    if at < 0:
        return text
    if data.startswith(UTF16_BOMS):
        why = "UTF-16? it starts with a UTF-16 byte-order mark"
    elif b"\x00" in data[:at + 1]:
        why = "UTF-16? it holds NUL bytes"
    else:
        line, column = place(data[skip:at].decode("utf-8"))
        why = f"byte 0x{data[at]:02x} at offset {at}, line {line}, column {column}"
    raise UsageError(f"{source} is not UTF-8 text ({why}): {SAVE_AS_UTF8}", argument)


def place(before: str) -> tuple[int, int]:
    """(line, column), from 1, of the character after the text ``before``."""
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
