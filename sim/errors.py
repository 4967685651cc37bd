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
    """Bad usage: an argument, option, name or file the library cannot take.

    ``argument`` names the parameter at fault in the library's words (``"games"``,
    ``"cluster"``), or None; the message starts with it where it can (``games must be ...``) so
    that a front end can put its own name for it in its place (the command line: ``--games``)."""

    def __init__(self, message: str, argument: str | None = None):
        self.argument = argument
        super().__init__(message)


class MissingExtra(FridayError, ImportError):
    """An optional library is missing: ``MissingExtra("train", "scikit-learn", "friday train")``
    says which extra installs it."""

    def __init__(self, extra: str, library: str, needed_by: str):
        self.extra, self.library, self.needed_by = extra, library, needed_by
        super().__init__(f"{needed_by} needs {library}: pip install 'friday-lab[{extra}]'")

    def __reduce__(self):
        """Pickled (a Dask worker's error) by the three names, not by the message."""
        return MissingExtra, (self.extra, self.library, self.needed_by)
