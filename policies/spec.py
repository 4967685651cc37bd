"""Policy specs: the one text form that names a policy everywhere (CLI, Python, result files).

    NAME                      a built-in policy (``friday policies``)
    NAME[P=V,P=V]             a variant: parameters set by name, e.g. ``expert[cull_max_missing=0]``
    path/to/file.py:func      a user's policy file and the function in it
    path/to/file.py:func[P=V] a variant of it

``parse_policy_spec`` is the only parser; ``policies.load_policy`` uses it, so ``simulate
--policy``, ``compare``, ``report`` and ``replay`` all accept the same texts.  Values must be
finite numbers, except those of TEXT_PARAMS (a name or a path: any text without ``,[]`` or
control characters); names are checked against the policy's ``PARAMS`` when it is loaded.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from sim.errors import UsageError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# parameters whose value may be a name, not a number (the search policy: base=cull-green,
# kinds=hazard+fight; the learned policy: weights=FILE.json); the policy checks it when loaded
TEXT_PARAMS = ("base", "kinds", "keep", "weights")
# a name's value: any text without control characters (a path may hold spaces, non-ASCII
# letters, backslashes, '='); ',', '[' and ']' end it before it gets here
_TEXT = re.compile(r"[^\x00-\x1f\x7f]+\Z")
USAGE = "write NAME[PARAM=VALUE,...] or file.py:function[PARAM=VALUE,...]"


@dataclass(frozen=True)
class PolicySpec:
    """A parsed policy text: ``base`` (a name or ``file.py:function``) and parameters."""
    base: str
    params: tuple = ()            # ((name, float or text), ...) in the order written

    @property
    def is_file(self) -> bool:
        return is_file_spec(self.base)

    @property
    def text(self) -> str:
        """The canonical text: ``base[p=v,...]`` with values as ``%g``."""
        if not self.params:
            return self.base
        return self.base + "[" + ",".join(f"{k}={format_value(v)}" for k, v in self.params) + "]"


def format_value(value) -> str:
    if isinstance(value, str):
        return value
    return f"{float(value):g}"


def is_file_spec(text: str) -> bool:
    path, sep, _ = str(text).rpartition(":")
    return bool(sep) and path.endswith(".py")


def parse_policy_spec(text) -> PolicySpec:
    """``'expert[cull_max_missing=0]'`` -> PolicySpec('expert', (('cull_max_missing', 0.0),)).
    A malformed text raises UsageError naming it."""
    text = str(text).strip()
    if not text:
        raise UsageError(f"empty policy name: {USAGE}")
    if "[" not in text and "]" not in text:
        return PolicySpec(text)
    open_at = text.find("[")
    if open_at <= 0 or not text.endswith("]") or text.count("[") != 1 or text.count("]") != 1:
        raise UsageError(f"malformed policy variant {text!r}: {USAGE}")
    base, inner = text[:open_at].strip(), text[open_at + 1:-1]
    params, seen = [], set()
    for item in inner.split(","):
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not _NAME.match(name) or not value:
            raise UsageError(f"malformed policy variant {text!r} at {item.strip()!r}: {USAGE}")
        if name in seen:
            raise UsageError(f"policy variant {text!r} sets {name!r} twice")
        seen.add(name)
        if name in TEXT_PARAMS:                 # a name or a path, even one of digits
            if not _TEXT.match(value):
                raise UsageError(f"parameter {name} in {text!r}: {value!r} holds a control "
                                 f"character")
            params.append((name, value))
            continue
        try:
            number = float(value)
        except ValueError:
            raise UsageError(f"parameter {name} in {text!r} must be a number, "
                             f"not {value!r}") from None
        if not math.isfinite(number):
            raise UsageError(f"parameter {name} in {text!r} must be a finite number, "
                             f"not {value!r}")
        params.append((name, number))
    return PolicySpec(base, tuple(params))
