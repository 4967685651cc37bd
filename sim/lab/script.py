"""What the scripts in ``benchmarks/`` share with the ``friday`` command: bad input gets one
``error:`` line and exit code 2."""
from __future__ import annotations

import argparse


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad argument prints one ``error:`` line (argparse's own prints the
    usage too) and exits with code 2."""

    def error(self, message):
        self.exit(2, f"error: {message} (see --help)\n")
