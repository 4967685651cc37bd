"""What the scripts in ``benchmarks/`` share with the ``friday`` command: bad input gets one
``error:`` line and exit code 2."""
from __future__ import annotations

import argparse
import sys


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad argument prints one ``error:`` line (argparse's own prints the
    usage too) and exits with code 2; a mistyped option is named before a missing one."""

    def error(self, message):
        self.exit(2, f"error: {message} (see --help)\n")

    def parse_args(self, args=None, namespace=None):
        argv = sys.argv[1:] if args is None else [str(a) for a in args]
        known = [s for action in self._actions for s in action.option_strings]
        for token in argv:
            if token == "--":
                break
            name = token.split("=", 1)[0]
            if token.startswith("--") and not any(
                    k == name or (self.allow_abbrev and k.startswith(name)) for k in known):
                self.error(f"unrecognized arguments: {token}")
        return super().parse_args(argv, namespace)
