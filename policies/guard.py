"""Moved to sim.contract (the floor under engines and players); this shim goes in 0.3.0.

``policies.guard.ask`` is ``sim.contract.decide_once``; every other name keeps its own."""
from sim.deprecation import module_moved

module_moved(__name__, "sim.contract", globals(), renamed={
    "ask": "sim.contract:decide_once", "check_returns": "sim.contract.decision:check_returns",
    "compile_message": "sim.contract.decision:compile_message",
    "raised": "sim.contract.decision:raised", "at": "sim.contract.decision:at"})
