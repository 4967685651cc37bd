"""friday-lab: rules-exact simulation of Friedemann Friese's solo game *Friday*.

``sim.reference`` is the readable reference engine (the spec in code), ``sim.fast`` the
Numba engine that plays the same games bit for bit.  Rule numbers (R1...) refer to
``RULES.md`` as shipped in the repository's shared folder.
"""
__version__ = "0.1.0"
