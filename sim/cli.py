"""The ``friday`` command: simulate, replay, play, policies, compare, report, balance.

Every bad input (unknown policy, level 7, negative game count, existing output file, illegal
action...) ends with one clear ``error:`` line and exit code 2, never a traceback.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import List, Optional

import typer

from .rules import MAX_SEED_TEXT, RuleError, check_level, check_seed, parse_levels, parse_options

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="friday-lab: rules-exact simulation of the solo game Friday.\n\n"
                       "Rules: docs/RULES.md (the rulebook, rules cited as R1..R10 and options "
                       "§O); traces: docs/TRACE.md.")


def fail(message: str):
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


@contextmanager
def user_errors(interrupted: str):
    """A command's body: bad input (RuleError) gets one ``error:`` line and exit code 2;
    Ctrl-C prints ``interrupted`` (what was kept) and exits with code 130."""
    from .progress import SimulationInterrupted
    try:
        yield
    except (SimulationInterrupted, KeyboardInterrupt):
        typer.echo(f"\n{interrupted}", err=True)
        raise typer.Exit(130)
    except RuleError as exc:
        fail(str(exc))


def parse_params(pairs: list[str] | None) -> dict:
    out = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise RuleError(f"parameter {pair!r} must look like NAME=VALUE")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def check_game(game: int, name: str = "--game") -> int:
    return check_seed(game, name)


def check_out(out: Path | None, force: bool):
    if out is None:
        return
    if out.is_dir():
        raise RuleError(f"{out} is a folder: --out takes a file name ending in .parquet")
    if out.exists() and not force:
        raise RuleError(f"{out} exists: choose another file or pass --force to overwrite it")
    if out.suffix != ".parquet":
        raise RuleError(f"--out must end in .parquet, got {out.name!r}")
    parent = out.resolve().parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise RuleError(f"cannot write {out}: folder {parent} does not exist or is not writable")


CARDS_HELP = "a whole card table in the format of sim/data/cards.csv (what-if)"
SET_HELP = "edit the card table: CARD.FIELD=VALUE, e.g. 63.pirate_hazard_value=35 (repeatable)"


def load_cards(cards: Path | None, sets: list[str] | None):
    """The run's card table (sim.cardtable): --cards FILE, then every --set."""
    from .cardtable import build
    return build(cards, sets)


CLUSTER_HELP = ("run on Dask: local:N (N worker processes here) or tcp://host:8786 (a running "
                "scheduler); needs pip install 'friday-lab[cluster]'")


def cluster_or_none(address: str | None, chunk: int | None, engine: str = "fast"):
    """The Dask connection of --cluster (a context manager), or a no-op one without it."""
    import contextlib
    if chunk is not None and chunk <= 0:
        raise RuleError(f"--chunk must be positive, got {chunk}")
    if address is None:
        if chunk is not None:
            raise RuleError("--chunk sets the size of cluster chunks: use it with --cluster")
        return contextlib.nullcontext(None)
    if engine != "fast":
        raise RuleError("--cluster runs the fast engine only")
    from .lab.cluster import Cluster, parse_address
    parse_address(address)                      # malformed: an error before anything starts
    return Cluster(address)


@app.command()
def simulate(
    policy: str = typer.Option("expert", help="policy name (see `friday policies`) or file.py:function"),
    level: str = typer.Option("all", help="1, 2, 3, 4, a list like 1,4, or all"),
    games: int = typer.Option(100_000, help="games per level"),
    seed: int = typer.Option(1, help=f"master seed, 0..{MAX_SEED_TEXT}"),
    engine: str = typer.Option("fast", help="fast (Numba) or reference (plain Python)"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE (docs/RULES.md §O)"),
    param: List[str] = typer.Option([], "--param", help="policy parameter NAME=VALUE"),
    out: Optional[Path] = typer.Option(None, help="write one row per game to this .parquet file"),
    force: bool = typer.Option(False, help="overwrite --out if it exists"),
    summary_only: bool = typer.Option(False, "--summary-only",
                                      help="aggregate on the fly (flat memory, for 10^8 games)"),
    quiet: bool = typer.Option(False, "--quiet", help="no compile notice, no progress bar"),
    cards: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    set_: List[str] = typer.Option([], "--set", help=SET_HELP),
    cluster: Optional[str] = typer.Option(None, help=CLUSTER_HELP),
    chunk: Optional[int] = typer.Option(None, help="games per cluster chunk (with --cluster)"),
    log_decisions: Optional[Path] = typer.Option(
        None, "--log-decisions", help="search policy: write one row per searched decision "
        "(observation, candidates, rollouts and wins) to this .parquet file"),
):
    """Play GAMES games per level and print win rates (95% interval) and scores.

    Ctrl-C stops within a second and reports (and writes) every finished game, exit code 130.
    Rules: docs/RULES.md."""
    from .progress import SimulationInterrupted
    try:
        levels = parse_levels(level)
        if games <= 0:
            raise RuleError(f"--games must be positive, got {games}")
        check_game(games, "--games")
        if threads is not None and threads <= 0:
            raise RuleError(f"--threads must be positive, got {threads}")
        if engine not in ("fast", "reference"):
            raise RuleError(f"unknown engine {engine!r}: choose fast or reference")
        if summary_only and out is not None:
            raise RuleError("--summary-only keeps no rows: it cannot be combined with --out")
        if summary_only and engine == "reference":
            raise RuleError("--summary-only runs on the fast engine only: drop --engine "
                            "reference, or drop --summary-only to play the reference engine")
        check_seed(seed)
        check_out(out, force)
        options = parse_options(option)
        table = load_cards(cards, set_)
        from policies import load_policy
        pol = load_policy(policy, parse_params(param))
        if getattr(pol, "kind", None) == "search":
            if engine == "reference":
                raise RuleError(f"policy {pol.name!r} runs on the fast engine only (it "
                                "resamples the engine's state): drop --engine reference")
        if log_decisions is not None:
            if getattr(pol, "kind", None) != "search":
                raise RuleError("--log-decisions records a search policy's decisions: use "
                                "--policy search (or a variant of it)")
            if summary_only or cluster is not None:
                raise RuleError("--log-decisions needs the games in this process: drop "
                                "--summary-only / --cluster")
            check_out(log_decisions, force)
            pol = pol.with_log()
        from .simulate import run_simulation
        with cluster_or_none(cluster, chunk, engine) as dask:
            run_simulation(levels, games, seed, pol, options, engine, threads, out,
                           summary_only, echo=typer.echo, quiet=quiet, cards=table,
                           cluster=dask, chunk=chunk, log_decisions=log_decisions)
    except SimulationInterrupted as exc:
        if exc.games:
            typer.echo(f"{exc}: the results above cover the finished games only", err=True)
        raise typer.Exit(130)
    except KeyboardInterrupt:            # while compiling, or a second Ctrl-C
        typer.echo("\naborted: nothing more reported or written", err=True)
        raise typer.Exit(130)
    except RuleError as exc:
        fail(str(exc))


@app.command()
def replay(
    level: int = typer.Option(..., help="1-4"),
    seed: int = typer.Option(..., help="master seed"),
    game: int = typer.Option(0, help=f"game index, 0..{MAX_SEED_TEXT}"),
    policy: str = typer.Option("expert", help="policy name or file.py:function"),
    deal: Optional[Path] = typer.Option(None, help="deal file (JSON) fixing the initial stacks"),
    actions: Optional[Path] = typer.Option(None, help="file of textual actions to play (scripted)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE"),
    param: List[str] = typer.Option([], "--param", help="policy parameter NAME=VALUE"),
    format: str = typer.Option("text", "--format", help="text or jsonl"),
    engine: Optional[str] = typer.Option(None, help="reference or fast (default: reference; "
                                         "fast for the search policy)"),
    ids: bool = typer.Option(False, "--ids", help="text: tag every card with its id (#17)"),
    cards: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    set_: List[str] = typer.Option([], "--set", help=SET_HELP),
):
    """Play one game and print its trace (docs/TRACE.md) or a play-by-play.  A scripted game
    that stops early (illegal action, list run out) prints the trace so far, then the error."""
    try:
        from .deal import load_deal
        from .trace import header
        check_level(level)
        check_seed(seed)
        check_game(game)
        if format not in ("text", "jsonl"):
            raise RuleError(f"unknown format {format!r}: choose text or jsonl")
        if engine not in (None, "fast", "reference"):
            raise RuleError(f"unknown engine {engine!r}: choose reference or fast")
        options = parse_options(option)
        table = load_cards(cards, set_)
        deal_dict = load_deal(str(deal)) if deal else None
        if actions is not None:
            if engine == "fast":
                raise RuleError("--actions (scripted play) runs on the reference engine only")
            from policies.scripted import ScriptedPolicy
            pol = ScriptedPolicy.from_file(actions)
        else:
            from policies import load_policy
            pol = load_policy(policy, parse_params(param))
        if engine is None:
            engine = "fast" if getattr(pol, "kind", None) == "search" else "reference"
        elif engine == "reference" and getattr(pol, "kind", None) == "search":
            raise RuleError(f"policy {pol.name!r} runs on the fast engine only: use --engine "
                            "fast (or leave --engine out)")
        head = header(engine, level, seed, game, pol.name, options, table)
        if engine == "reference":
            from .reference import Game
            played = Game(level, seed, game, pol, options, deal_dict, cards=table)
            try:
                played.play()
            except RuleError:
                show_trace([head] + played.trace, format, ids)   # the game so far, then the error
                raise
            events = played.trace
        else:
            from .fast import play_fast
            events = play_fast(level, seed, game, pol, options, deal_dict, cards=table)["trace"]
        show_trace([head] + events, format, ids)
    except RuleError as exc:
        fail(str(exc))


def show_trace(events, format: str, ids: bool):
    """JSON lines, or the readable log: coloured on a terminal (rich), plain otherwise."""
    import sys
    from .render import render_rich, render_text
    from .trace import to_jsonl
    if format == "jsonl":
        typer.echo(to_jsonl(events), nl=False)
    elif sys.stdout.isatty():
        from rich.console import Console
        Console(highlight=False, soft_wrap=True).print(render_rich(events, ids), end="")
    else:
        typer.echo(render_text(events, ids), nl=False)


@app.command()
def play(
    level: int = typer.Option(..., help="1-4"),
    seed: Optional[int] = typer.Option(None, help="master seed (default: a random one, printed)"),
    game: int = typer.Option(0, help="game index: game G of seed S is always the same deal"),
    hint: str = typer.Option("expert", help="policy that answers '?' (name or file.py:function)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE"),
    ids: bool = typer.Option(False, "--ids", help="tag every card with its id (#17)"),
):
    """Play a whole game yourself: answer each decision by number or name, ? for a hint, q to
    leave (exit 0; Ctrl-C: 130).  Ends with the score and the built-in policies on the same deal."""
    try:
        import secrets
        from .play import play_in_terminal
        check_level(level)
        seed = secrets.randbelow(1 << 31) if seed is None else check_seed(seed)
        check_game(game)
        options = parse_options(option)
        from policies import load_policy
        if getattr(load_policy(hint), "kind", None) == "search":   # a bad --hint fails first
            raise RuleError("--hint search needs the fast engine's state: choose another hint "
                            "policy (play runs the reference engine)")
        code = play_in_terminal(level, seed, game, hint, options, ids)
    except RuleError as exc:
        fail(str(exc))
    raise typer.Exit(code)


@app.command()
def policies():
    """List the policies, what they do, and their parameters."""
    from policies import builtin_policies
    for pol in builtin_policies(search=True).values():
        typer.echo(f"{pol.name:14s} {pol.description}")
        for name, value in zip(pol.param_names, pol.params):
            typer.echo(f"{'':14s}   --param {name}={value:g}")
        for name, value in getattr(pol, "text_params", {}).items():
            typer.echo(f"{'':14s}   --param {name}={value}")


@app.command()
def compare(
    policies: Optional[List[str]] = typer.Argument(
        None, help="two or more policies: NAME, 'NAME[PARAM=VALUE,...]', file.py:function[...]"),
    level: str = typer.Option("all", help="1, 2, 3, 4, a list like 1,4, or all"),
    games: int = typer.Option(100_000, help="games per level (the same games for every policy)"),
    seed: int = typer.Option(1, help=f"master seed, 0..{MAX_SEED_TEXT}"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE (RULES.md §O)"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    out: Optional[Path] = typer.Option(None, help="per-game outcomes of every policy side by "
                                                   "side, one row per level and game (.parquet)"),
    figure: Optional[Path] = typer.Option(None, help="figure of the paired differences (.png)"),
    force: bool = typer.Option(False, help="overwrite --out / --figure if they exist"),
    cards: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    set_: List[str] = typer.Option([], "--set", help=SET_HELP),
    cluster: Optional[str] = typer.Option(None, help=CLUSTER_HELP),
    chunk: Optional[int] = typer.Option(None, help="games per cluster chunk (with --cluster)"),
):
    """Compare policies game by game on the same deals: win rates, paired differences,
    McNemar's exact test, paired score differences; Holm-adjusted ranking for 3+ policies."""
    try:
        from .lab import compare_paired, play_paired, ranking, write_paired
        from .lab.text import comparison_text
        if not policies or len(policies) < 2:
            raise RuleError("compare needs at least two policies, e.g. `friday compare expert "
                            "'expert[cull_max_missing=0]'` (the same one twice is allowed)")
        levels = parse_levels(level)
        if games <= 0:
            raise RuleError(f"--games must be positive, got {games}")
        if threads is not None and threads <= 0:
            raise RuleError(f"--threads must be positive, got {threads}")
        check_seed(seed)
        check_out(out, force)
        if figure is not None:
            if figure.exists() and not force:
                raise RuleError(f"{figure} exists: choose another file or pass --force")
            if figure.suffix.lower() not in (".png", ".pdf", ".svg"):
                raise RuleError(f"--figure must end in .png, .pdf or .svg, got {figure.name!r}")
        options = parse_options(option)
        from policies import load_policy
        pols = [load_policy(p) for p in policies]
        table = load_cards(cards, set_)
        if not table.is_printed:
            typer.echo(f"cards edited [{table.hash}]: {table.describe()}")
        with cluster_or_none(cluster, chunk) as dask:
            paired = play_paired(pols, levels, games, seed, options, threads, chunk=chunk,
                                 keep_on_interrupt=True, progress=_progress, cluster=dask,
                                 cards=table)
        if len(paired) == 0:
            typer.echo("interrupted before any game finished: nothing to compare", err=True)
            raise typer.Exit(130)
        comparison = compare_paired(paired)
        typer.echo(comparison_text(comparison, ranking(comparison) if len(pols) > 2 else None))
        if out is not None:
            write_paired(paired, out, force=True)
            typer.echo(f"wrote {len(paired):,} rows ({len(pols)} policies side by side) to {out}")
        if figure is not None:
            from .lab.plots import plot_paired_differences
            plot_paired_differences(comparison, figure)
            typer.echo(f"wrote {figure}")
        if paired.attrs["interrupted"]:
            typer.echo(f"interrupted after {len(paired):,} games per policy: the results above "
                       "cover the finished games only", err=True)
            raise typer.Exit(130)
    except RuleError as exc:
        fail(str(exc))


def _progress(done: int, total: int):
    import sys
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r{done:,}/{total:,} games per policy", end=end, file=sys.stderr, flush=True)


@app.command()
def report(
    policies: Optional[List[str]] = typer.Argument(
        None, help="policies to compare (default: every built-in one): NAME, 'NAME[P=V]', "
                   "file.py:function"),
    level: str = typer.Option("all", help="1, 2, 3, 4, a list like 1,4, or all"),
    games: int = typer.Option(1_000_000, help="games per policy and level"),
    seed: int = typer.Option(1, help="master seed"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE (RULES.md §O)"),
    out: Path = typer.Option(Path("results"), help="folder for policies.md and figures"),
    threads: Optional[int] = typer.Option(None, help="worker threads"),
    force: bool = typer.Option(False, help="overwrite existing report files"),
    quiet: bool = typer.Option(False, "--quiet", help="no line per finished level"),
):
    """Compare policies on every level, on the same deals: policies.md and figures."""
    with user_errors("interrupted: no report files written"):
        if games <= 0:
            raise RuleError(f"--games must be positive, got {games}")
        check_game(games, "--games")
        if threads is not None and threads <= 0:
            raise RuleError(f"--threads must be positive, got {threads}")
        check_seed(seed)
        if out.exists() and not out.is_dir():
            raise RuleError(f"{out} is a file: --out takes a folder for the report files")
        levels = parse_levels(level)
        options = parse_options(option)
        from .report import policy_report
        policy_report(games, seed, out, threads, force, echo=typer.echo, policies=policies,
                      levels=levels, options=options, quiet=quiet)


balance_app = typer.Typer(add_completion=False, no_args_is_help=True,
                          help="Balance questions: pirates compared, card values swept.")
app.add_typer(balance_app, name="balance")


def _check_run(games: int, seed: int, threads: int | None):
    if games <= 0:
        raise RuleError(f"--games must be positive, got {games}")
    if threads is not None and threads <= 0:
        raise RuleError(f"--threads must be positive, got {threads}")
    check_seed(seed)


def _check_out_dir(out: Path | None, files, force: bool):
    if out is None:
        return
    if out.exists() and not out.is_dir():
        raise RuleError(f"--out {out} is a file: give a folder")
    taken = [f for f in files if (out / f).exists()]
    if taken and not force:
        raise RuleError(f"{out / taken[0]} exists: choose another --out folder or pass --force")
    parent = out.resolve() if out.exists() else out.resolve().parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise RuleError(f"cannot write into {out}: {parent} does not exist or is not writable")


@balance_app.command("pirates")
def balance_pirates(
    policy: str = typer.Option("expert", help="policy name or file.py:function"),
    level: str = typer.Option("all", help="1, 2, 3, 4, a list like 1,4, or all"),
    games: int = typer.Option(100_000, help="games per level"),
    seed: int = typer.Option(1, help=f"master seed, 0..{MAX_SEED_TEXT}"),
    out: Optional[Path] = typer.Option(None, help="folder for pirates.md, CSV tables, figures"),
    force: bool = typer.Option(False, help="overwrite files in --out"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    what_if_games: int = typer.Option(0, help="also sweep the hardest pirate's value at the "
                                      "highest level on this many games per value (0: no)"),
    what_if_values: Optional[str] = typer.Option(None, help="values of the what-if sweep "
                                                 "(default: 20 below the printed value to it, step 2)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE"),
    param: List[str] = typer.Option([], "--param", help="policy parameter NAME=VALUE"),
    cards: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    set_: List[str] = typer.Option([], "--set", help=SET_HELP),
):
    """Per pirate and level: reached, beaten when faced (first, second, overall), win rate
    when drawn, ranked with significance; per pair: win rate."""
    with user_errors("interrupted: nothing written"):
        from .lab.balance_report import STUDY_FILES
        levels = parse_levels(level)
        _check_run(games, seed, threads)
        if what_if_games < 0:
            raise RuleError(f"--what-if-games must be >= 0, got {what_if_games}")
        _check_out_dir(out, STUDY_FILES, force)
        options = parse_options(option)
        table = load_cards(cards, set_)
        from .lab.balance import parse_values
        if what_if_values is not None:
            parse_values(what_if_values)
        from policies import load_policy
        pol = load_policy(policy, parse_params(param))
        from .lab import balance as B
        from .lab.balance_report import sweep_markdown, terminal_table, write_study

        def show(lv, d):
            typer.echo(f"level {lv}: {games:,} games, policy {pol.name}, cards {table.describe()}")
            typer.echo(terminal_table(d))
        study = B.pirate_study(levels, games, seed, pol, table, options, threads, on_level=show)
        what_if = None
        if what_if_games:
            what_if = B.what_if_hardest(study, max(levels), what_if_values, what_if_games,
                                        seed, pol, table, options, threads)
            typer.echo("\n".join(sweep_markdown(what_if)))
        if out is not None:
            command = " ".join(
                [f"friday balance pirates --policy {policy} --level {level} --games {games} "
                 f"--seed {seed}"] + [f"--option {o}" for o in option]
                + [f"--param {p}" for p in param] + ([f"--cards {cards}"] if cards else [])
                + [f"--set {s}" for s in set_]
                + ([f"--what-if-games {what_if_games}"] if what_if_games else [])
                + ([f"--what-if-values {what_if_values}"] if what_if_values else [])
                + [f"--out {out}"])
            write_study(out, study, pol.name, command, table, what_if)
            typer.echo(f"wrote pirates.md, pirates.csv, pirate_pairs.csv and figures to {out}/")


def parse_target_rate(text: str | None) -> float | None:
    if text is None:
        return None
    t = text.strip()
    try:
        v = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise RuleError(f"--target {text!r} must be a win rate like 0.2 or 20%") from None
    if not 0 < v < 1:
        raise RuleError(f"--target {text!r} must be a win rate strictly between 0 and 1")
    return v


@balance_app.command("sweep")
def balance_sweep(
    set_: List[str] = typer.Option(..., "--set", help="the CARD.FIELD to sweep (once), and any "
                                   "fixed CARD.FIELD=VALUE edits"),
    values: str = typer.Option(..., help="values: A:B, A:B:STEP or A,B,C"),
    policy: str = typer.Option("expert", help="policy name or file.py:function"),
    level: int = typer.Option(4, help="1-4"),
    games: int = typer.Option(100_000, help="games per value (the same deals for every value)"),
    seed: int = typer.Option(1, help=f"master seed, 0..{MAX_SEED_TEXT}"),
    target: Optional[str] = typer.Option(None, help="find the value giving this win rate "
                                         "(0.2 or 20%); default for a pirate: beaten when faced "
                                         "as often as the median other pirate"),
    bootstrap: int = typer.Option(200, help="bootstrap replicates for the interval of that value"),
    out: Optional[Path] = typer.Option(None, help="write the figure to this .png file"),
    csv: Optional[Path] = typer.Option(None, "--csv", help="write the table to this .csv file"),
    force: bool = typer.Option(False, help="overwrite --out / --csv"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE"),
    param: List[str] = typer.Option([], "--param", help="policy parameter NAME=VALUE"),
    cards: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
):
    """Win rate (and a pirate's beaten-when-faced rate) against one card field's value, on
    the same deals for every value, and the value where the card is as hard as the median
    pirate (or gives --target)."""
    with user_errors("interrupted: nothing written"):
        check_level(level)
        _check_run(games, seed, threads)
        swept = [s for s in set_ if "=" not in s]
        fixed = [s for s in set_ if "=" in s]
        if len(swept) != 1:
            raise RuleError("give exactly one --set CARD.FIELD without a value (the field to "
                            f"sweep); got {len(swept)}: {', '.join(swept) or 'none'}")
        if bootstrap < 0:
            raise RuleError(f"--bootstrap must be >= 0, got {bootstrap}")
        for path, suffix in ((out, ".png"), (csv, ".csv")):
            if path is not None:
                if path.suffix != suffix:
                    raise RuleError(f"{path} must end in {suffix}")
                if path.exists() and not force:
                    raise RuleError(f"{path} exists: choose another file or pass --force")
                if not path.resolve().parent.is_dir():
                    raise RuleError(f"cannot write {path}: its folder does not exist")
        rate = parse_target_rate(target)
        options = parse_options(option)
        table = load_cards(cards, fixed)
        from .cardtable import parse_target
        from .lab import balance as B
        parse_target(swept[0])
        vals = B.parse_values(values)
        from policies import load_policy
        pol = load_policy(policy, parse_params(param))
        res = B.sweep(swept[0], vals, level, games, seed, pol, table, options, threads,
                      target_rate=rate, bootstrap=bootstrap)
        from .lab.balance_report import sweep_figure, sweep_markdown, write_csv
        typer.echo(f"sweep of {res['label']} {res['field']}, level {level}, policy {pol.name}, "
                   f"{games:,} games per value (seed {seed}, same deals), cards {table.describe()}")
        typer.echo("\n".join(sweep_markdown(res)))
        if csv is not None:
            write_csv(res["table"], csv)
            typer.echo(f"wrote {csv}")
        if out is not None:
            sweep_figure(res, out, pol.name)
            typer.echo(f"wrote {out}")


def main():
    """The ``friday`` command.  A mistyped command, option or value is one ``error:`` line
    (exit code 2), as every other bad input.  After Ctrl-C (exit code 130) the process ends at
    once, without the interpreter's teardown of Numba's threads and the loaded modules (about a
    second on a busy machine): the results are printed and any file written by then."""
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:        # Click's usage errors (typer vendors Click)
        if type(exc).__name__ == "NoArgsIsHelpError":
            app()                                # a bare command group: its help, as ever
        ctx = getattr(exc, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        print(f"error: {exc.format_message()}{where}", file=sys.stderr)
        code = 2
    except typer.Abort:
        print("Aborted!", file=sys.stderr)
        code = 1
    except SystemExit as exc:
        code = exc.code
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
