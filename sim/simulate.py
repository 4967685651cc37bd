"""Deprecated: ``sim.simulate`` went into the lab in friday-lab 0.2.0 (CHANGELOG.md); this shim
serves its names from their new places with a DeprecationWarning until 0.3.0."""
from sim.deprecation import moved

__getattr__ = moved(__name__, {
    "run_simulation": "sim.lab.simulate:run_simulation", "header": "sim.lab.simulate:header",
    "format_summary": "sim.lab.summary:format_summary",
    "write_parquet": "sim.lab.files:write_parquet",
    "SimulationInterrupted": "sim.lab.progress:SimulationInterrupted"})
