"""``python -m sim.cli``: the friday command."""
from . import main

main()
