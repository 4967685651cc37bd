"""Deprecated: ``sim.env`` moved to ``sim.play.env`` in friday-lab 0.2.0 (CHANGELOG.md); this shim
serves its names with a DeprecationWarning until 0.3.0."""
from sim.deprecation import module_moved

module_moved(__name__, "sim.play.env", globals())
