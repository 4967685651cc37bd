"""Moved to policies.search_run (the search's runner, beside its player) and, for
``decision_log``, policies.search_log; this shim goes in 0.3.0.  Not part of the engine: it
sits above it, with the search (tests/test_layers.py)."""
from sim.deprecation import module_moved

module_moved(__name__, "policies.search_run", globals(),
             renamed={"decision_log": "policies.search_log:decision_log"})
