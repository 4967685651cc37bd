"""Deprecated: ``sim.results`` was split in friday-lab 0.2.0 (CHANGELOG.md); this shim serves
its names from their new places with a DeprecationWarning until 0.3.0."""
from sim.deprecation import moved

__getattr__ = moved(__name__, {
    "to_frame": "sim.lab.summary:to_frame", "summarize": "sim.lab.summary:summarize",
    "wilson": "sim.lab.stats:wilson_interval", "COLUMNS": "sim.rules:RESULT_COLUMNS"})
