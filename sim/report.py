"""Deprecated: ``sim.report`` moved to ``sim.lab.report`` in friday-lab 0.2.0 (CHANGELOG.md);
this shim serves its names from their new places with a DeprecationWarning until 0.3.0."""
from sim.deprecation import moved

__getattr__ = moved(__name__, {
    "policy_report": "sim.lab.report:policy_report", "REPORT_FILES": "sim.lab.report:REPORT_FILES",
    "hist_sd": "sim.lab.summary:hist_sd"})
