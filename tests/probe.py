"""A test-only policy that reaches rare paths: the differential and render tests play it."""
from __future__ import annotations

import numpy as np
from numba import njit

from policies import Policy
from sim import observation as O
from sim.actions import A_DRAW, A_END, A_PAY, A_USE
from sim.cards import FIGHT_VALUE as _FV
from sim.rng import nb_below, nb_uniform

FV = np.array(_FV)


@njit(cache=True)
def probe_decide(obs, legal, n_legal, params, rng):
    """Test-only: draws free cards, pays while the face-up total is below the value and life >
    params[0], uses the highest usable ability with probability params[1], random with
    probability params[2]; fights the lower-id hazard; otherwise the highest legal id."""
    if nb_uniform(rng) < params[2]:
        return legal[nb_below(rng, n_legal)]
    ph = obs[O.O_PHASE]
    if ph == O.PH_FIGHT:
        total = 0
        for c in range(59):
            z = obs[O.ZONE + c]
            if (z == O.Z_FIGHT_LEFT or z == O.Z_FIGHT_RIGHT) and (obs[O.FLAGS + c] & 1) == 0:
                total += FV[c] * (2 if obs[O.FLAGS + c] & 2 else 1)
        if legal[n_legal - 1] >= A_USE and nb_uniform(rng) < params[1]:
            return legal[n_legal - 1]
        for i in range(n_legal):
            if legal[i] == A_DRAW:
                return A_DRAW
        if total < obs[O.O_FIGHT_VALUE] and (obs[O.O_LIFE] > params[0]
                                             or obs[O.O_OPPONENT_IS_PIRATE]):
            for i in range(n_legal):
                if legal[i] == A_PAY:
                    return A_PAY
        if legal[0] == A_END:
            return A_END
        return legal[n_legal - 1]
    if ph == O.PH_HAZARD:
        return legal[0]
    if ph == O.PH_DESTROY:
        return legal[n_legal - 1] if obs[O.O_STEP] == 0 else legal[0]
    return legal[n_legal - 1]


PROBE = Policy("probe", probe_decide, {"reserve": 4.0, "use": 0.9, "eps": 0.05})
