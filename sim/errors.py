"""The errors friday-lab raises: one vocabulary for the library and the command line.

Every error the library raises on purpose is a ``FridayError``; the command line prints one as
one ``error:`` line (exit code 2).  What kind of error it is tells who can fix it:

* ``RuleError``: the game's rules forbid it (an illegal action, an impossible deal or table
  shuffle, a position that cannot occur; RULES.md R1...);
* ``UsageError``: the library was asked something it cannot do (an unknown level or policy, a
  parameter out of range, a file that is not what it should be, a bad cluster address);
* ``MissingExtra``: an optional library is not installed; the message names the extra
  (``pip install 'friday-lab[train]'``);
* ``PolicyError`` (``sim.contract``): a policy's decide failed or broke the contract.

Messages speak the library's own words (``games``, ``level``); the command line adds its flags.
"""
from __future__ import annotations


class FridayError(Exception):
    """Every error friday-lab raises on purpose (catch this one for all of them)."""


class RuleError(FridayError, ValueError):
    """The rules forbid it: an illegal action, an impossible deal, a position that cannot occur."""


class UsageError(FridayError, ValueError):
    """Bad usage: an argument, option, name or file the library cannot take."""


class MissingExtra(FridayError, ImportError):
    """An optional library is missing: ``MissingExtra("train", "scikit-learn", "friday train")``
    says which extra installs it."""

    def __init__(self, extra: str, library: str, needed_by: str):
        self.extra, self.library, self.needed_by = extra, library, needed_by
        super().__init__(f"{needed_by} needs {library}: pip install 'friday-lab[{extra}]'")
