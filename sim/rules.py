"""Levels, steps, causes and rule options (R2, R8, R10, §O), in one place."""
from __future__ import annotations

from dataclasses import dataclass, asdict

from sim.errors import RuleError, UsageError  # noqa: F401  (the error vocabulary: sim.errors)

# Steps (R8.1); also the index into cards.HAZARD_VALUE.
GREEN, YELLOW, RED, PIRATES = 0, 1, 2, 3
STEP_NAMES = ("green", "yellow", "red", "pirates")

# Game-end causes (TRACE.md game_end.cause, R10).
CAUSE_WON, CAUSE_NO_LIFE, CAUSE_OLD_AGE, CAUSE_NO_CARDS = 0, 1, 2, 3
CAUSE_NAMES = ("won", "no_life", "old_age", "no_cards")

LEVELS = (1, 2, 3, 4)

# One result row per finished game, the same from both engines (R10; docs/reference/result-files.md).
RESULT_COLUMNS = ("level", "game", "won", "cause", "step", "pirate_1", "pirate_2",
                  "pirate_1_beaten", "pirate_2_beaten", "life", "score", "aging_taken",
                  "destroyed", "fights_won_green", "fights_won_yellow", "fights_won_red",
                  "fights_lost_green", "fights_lost_yellow", "fights_lost_red", "turns",
                  "pirate_first")


def start_life(level: int) -> tuple[int, int]:
    """R2.5: (life, max_life) for a level."""
    return (18, 20) if level == 4 else (20, 22)


@dataclass(frozen=True)
class Options:
    """Rule options of RULES.md §O, defaults first."""
    old_age: str = "lose"                  # R7.2: "lose" | "continue"
    step_minus1_stacks: bool = True        # R5.7
    plus1_counts_destroyed: bool = True    # R9.5

    def as_dict(self) -> dict:
        return asdict(self)

    def as_array(self):
        """Options as int64 flags for the Numba engine: [old_age_continue, stacks, counts]."""
        import numpy as np
        return np.array([self.old_age == "continue", self.step_minus1_stacks,
                         self.plus1_counts_destroyed], dtype=np.int64)


def options_text(options) -> str:
    """Rule options (an Options or its ``as_dict()``, as results files record them) as every
    command prints them: ``old_age=lose, step_minus1_stacks=true, plus1_counts_destroyed=true``
    (the values of RULES.md §O, as ``--option`` takes them)."""
    values = options.as_dict() if isinstance(options, Options) else dict(options)
    return ", ".join(f"{k}={str(v).lower()}" for k, v in values.items())


_CHOICES = {"old_age": ("lose", "continue"),
            "step_minus1_stacks": (True, False),
            "plus1_counts_destroyed": (True, False)}


def check_level(level) -> int:
    """A level (R2): an integer 1..4, a numpy integer included."""
    if not _is_int(level) or int(level) not in LEVELS:
        raise UsageError(f"unknown level {level!r}: choose one of 1, 2, 3, 4", "level")
    return int(level)


def name_values(pairs, what: str = "option") -> dict:
    """{NAME: VALUE} of 'NAME=VALUE' strings (rule options, policy parameters)."""
    values = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise UsageError(f"{what} {pair!r} must look like NAME=VALUE")
        name, value = pair.split("=", 1)
        values[name.strip()] = value.strip()
    return values


def parse_options(pairs=None, **kwargs) -> Options:
    """Options from 'NAME=VALUE' strings and/or keyword arguments; clear error otherwise."""
    values = {**name_values(pairs), **kwargs}
    out = {}
    for name, value in values.items():
        if name not in _CHOICES:
            raise UsageError(f"unknown rule option {name!r}: known are {', '.join(_CHOICES)}")
        choices = _CHOICES[name]
        if isinstance(value, str) and isinstance(choices[0], bool):
            low = value.lower()
            if low not in ("true", "false"):
                raise UsageError(f"option {name} must be true or false, not {value!r}")
            value = low == "true"
        if value not in choices or type(value) is not type(choices[0]):
            raise UsageError(f"option {name} must be one of {', '.join(map(str, choices))}, "
                             f"not {value!r}")
        out[name] = value
    return Options(**out)


def _is_int(x) -> bool:
    import numpy as np
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def parse_levels(level) -> list[int]:
    """``1``, ``[1, 4]``, ``"1,4"`` or ``"all"`` -> a list of distinct levels (R2); a level
    named twice would play the same games twice and count them as independent."""
    what = "choose 1, 2, 3, 4, a list like 1,4, or all"
    if isinstance(level, str):
        if level.strip() == "all":
            return list(LEVELS)
        try:
            levels = [check_level(int(part)) for part in level.split(",")]
        except ValueError:
            raise UsageError(f"unknown level {level!r}: {what}") from None
    elif isinstance(level, (list, tuple, range)) or type(level).__name__ == "ndarray":
        levels = [check_level(int(lv) if _is_int(lv) else lv) for lv in level]
        if not levels:
            raise UsageError(f"no level given: {what}")
    else:
        levels = [check_level(int(level) if _is_int(level) else level)]
    if len(set(levels)) != len(levels):
        raise UsageError(f"level {level!r} names a level twice: the same games would count twice")
    return levels


def check_seed(seed, name: str = "seed") -> int:
    """A master seed or game index: an integer 0 .. 2**63-1 (sim.rng)."""
    from sim.rng import MAX_SEED
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"{name} {seed!r} out of range: use 0..{MAX_SEED}", name)
    return int(seed)


def as_options(options) -> Options:
    """None, an Options, a dict {name: value} or ["NAME=VALUE", ...] -> Options (§O)."""
    if options is None or isinstance(options, Options):
        return options or Options()
    if isinstance(options, dict):
        return parse_options(**options)
    if isinstance(options, (list, tuple)):
        return parse_options(list(options))
    raise UsageError(f"options must be an Options, a dict or a list of NAME=VALUE, got "
                     f"{options!r}")
