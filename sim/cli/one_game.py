"""``friday replay``, ``play`` and ``policies``: one game, traced, played by you, and the
players there are."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal, Optional

import typer

from sim.errors import RuleError, UsageError
from sim.rules import check_level, parse_options
from .common import (CardsOpt, Engine, ForceOpt, OptionOpt, ParamOpt, PolicyOpt, SeedOpt, SetOpt,
                     command, index_option, load_cards, load_policy)
from .options import DealOpt, GameOpt, IdsOpt, LevelNumber, rollouts_option

app = typer.Typer()
FormatOpt = Annotated[Literal["text", "jsonl", "html"], typer.Option(
    help="text (a play-by-play), jsonl (the trace) or html (a page that steps through the "
         "game's decisions, written to --out)")]
EngineOpt = Annotated[Optional[Engine], typer.Option(
    help="reference or fast (default: reference; fast for a searching player)")]
PageOpt = Annotated[Optional[Path], typer.Option(help="html: the page to write (FILE.html)")]


@command(app)
def replay(
    level: LevelNumber, seed: SeedOpt,
    game: GameOpt = 0, policy: PolicyOpt = "expert",
    deal: DealOpt = None,
    actions: Annotated[Optional[Path], typer.Option(
        help="a table game's moves to play (one per line, or a JSON list)")] = None,
    option: OptionOpt = [], param: ParamOpt = [],
    format: FormatOpt = "text", engine: EngineOpt = None,
    ids: Annotated[bool, typer.Option("--ids", help="text, html: tag every card with its id "
                                                    "(#17)")] = False,
    cards: CardsOpt = None, set_: SetOpt = [],
    out: PageOpt = None, force: ForceOpt = False,
):
    """Play one game and print its trace (docs/TRACE.md) or a play-by-play, or write it as a
    page (--format html --out FILE.html).  A scripted game that stops at an illegal move
    prints the trace so far, then the error (html: the error only); moves that end before the
    game does show the game up to there and say so (exit 0): a position to continue (friday
    play --actions) or review."""
    from policies.scripted import ScriptedPolicy
    from sim.deal import load_deal
    from sim.trace import header
    check_level(level)
    check_page(format, out, force)
    options, table = parse_options(option), load_cards(cards, set_)
    pol = ScriptedPolicy.from_file(actions) if actions is not None else load_policy(policy, param)
    deal_dict = load_deal(str(deal)) if deal else None
    if actions is not None:
        deal_dict = pol.deal_with_shuffles(deal_dict)
    engine = engine or ("reference" if "reference" in pol.engines else "fast")
    pol.check_engine(engine)
    head = header(engine, level, seed, game, pol.name, options, table)
    if format == "html":
        return write_page(out, head, pol, options, deal_dict, table, ids)
    if engine == "fast":
        return show_trace([head] + fast_trace(level, seed, game, pol, options, deal_dict, table),
                          format, ids)
    replay_reference(head, pol, options, deal_dict, table, format, ids)


def replay_reference(head: dict, pol, options, deal: dict | None, table, format: str,
                     ids: bool):
    """The game of ``head`` on the reference engine, shown; a transcript's that stops at an
    illegal move: the trace so far, then the error; that ends early: then the note."""
    from sim.reference import Game
    played = Game(head["level"], head["seed"], head["game"], pol, options, deal, cards=table)
    try:
        note = play_moves(pol, played.play, lambda: played.trace[-1])
    finally:
        show_trace([head] + played.trace, format, ids)
    if note:
        typer.echo(note, err=True)


def play_moves(pol, play, end) -> str:
    """``play()``: a reference game of ``pol``; for a transcript's scripted player
    (policies.transcript), an illegal move names its line, a move after the game's end is
    refused (``end()``: its game_end event), and moves that end before the game does return the
    note that says so ('' otherwise)."""
    from policies.transcript import MovesRanOut
    from sim.reference import IllegalAction
    t = getattr(pol, "transcript", None)
    if t is None:
        play()
        return ""
    try:
        play()
    except MovesRanOut as stop:
        return t.ends_early(stop.phase, stop.turn, stop.legal)
    except IllegalAction as exc:       # the engine's words: "... at a ... decision (...);"
        said = re.search(r"(at an? \w+ decision \([^)]*\)); legal: (.*)$", str(exc))
        if said is None:
            raise RuleError(f"{t.at(pol.position - 1)}: {exc}") from None
        raise t.illegal(pol.position - 1, said[1], said[2].split(", ")) from None
    if pol.position < len(t.moves):
        raise t.after_the_end(pol.position, end())
    return ""


def fast_trace(level, seed, game, pol, options, deal: dict | None, table) -> list[dict]:
    """The fast engine's game: one call (sim.fast.play_fast), or stepped (sim.Game) where the
    deal gives a stack more than one table shuffle (sim.deal: fed one by one)."""
    from sim.deal import shuffles_after_the_first
    if deal and shuffles_after_the_first(deal):
        from sim.play.html import record_game
        return record_game("fast", level, seed, game, pol, options, deal, table)[0]
    from sim.fast import play_fast
    return play_fast(level, seed, game, pol, options, deal, cards=table)["trace"]


def check_page(format: str, out: Path | None, force: bool):
    """--out and --force go with --format html, which needs them: refused before any game."""
    from sim.lab.files import check_file
    if format == "html" and out is None:
        raise UsageError("--format html writes a page: give --out FILE.html")
    if format != "html" and (out is not None or force):
        raise UsageError(f"--{'out' if out is not None else 'force'} goes with --format html "
                         f"(--format {format} prints to standard output)")
    check_file(out, (".html",), force)


def write_page(out: Path, head: dict, pol, options, deal: dict | None, table, ids: bool):
    """The game of ``head`` played again, decision by decision, as one page (sim.play.html);
    a transcript that ends early: its page up to there."""
    from policies.transcript import MovesRanOut
    from sim.lab.files import write_text
    from sim.play.html import record_game, replay_page
    game = [head["engine"], head["level"], head["seed"], head["game"], pol, options, deal, table]
    early = []

    def play():
        try:
            early.append(record_game(*game))
        except MovesRanOut as stop:            # the game so far comes with it (record_game)
            early.append((stop.trace, stop.decisions))
            raise
    note = play_moves(pol, play, lambda: early[0][0][-1])
    trace, decisions = early[0]
    write_text(out, replay_page(head, trace, decisions, ids))
    end = trace[-1]
    typer.echo(f"{out}: {len(decisions)} decisions; " + (
        f"{'won' if end['won'] else 'lost'}, score {end['score']}" if end["e"] == "game_end"
        else "the moves end before the game does"))
    if note:
        typer.echo(note, err=True)


def show_trace(events, format: str, ids: bool):
    """JSON lines, or the readable log: coloured on a terminal (rich), plain otherwise."""
    import sys
    from sim.play.render import render_rich, render_text
    from sim.trace import to_jsonl
    if format == "jsonl":
        typer.echo(to_jsonl(events), nl=False)
    elif sys.stdout.isatty():
        from rich.console import Console
        Console(highlight=False, soft_wrap=True).print(render_rich(events, ids), end="")
    else:
        typer.echo(render_text(events, ids), nl=False)


CoachOpt = Annotated[bool, typer.Option("--coach", help="after every move, the chance of "
                                                     "winning it lost against the best move")]
RolloutsOpt = Annotated[int, rollouts_option("continuations per action for ? and --coach")]
SaveOpt = Annotated[Optional[Path], typer.Option(
    help="write the moves made (one per line) to this file, for friday review and replay "
         "--actions")]
GoOnOpt = Annotated[Optional[Path], typer.Option(
    "--actions", help="a game left early (play --save's file, a transcript): its moves are "
                      "played, then you go on")]


@command(app)
def play(
    level: LevelNumber,
    seed: Annotated[Optional[int], index_option("master seed (default: a random one, "
                                                "printed)")] = None,
    game: GameOpt = 0,
    hint: Annotated[str, typer.Option(help="policy that answers '?' (name or "
                                           "file.py:function)")] = "expert",
    option: OptionOpt = [], ids: IdsOpt = False, coach: CoachOpt = False,
    rollouts: RolloutsOpt = 300, save: SaveOpt = None, force: ForceOpt = False,
    actions: GoOnOpt = None,
):
    """Play a whole game yourself: answer each decision by number or name, ? for a hint and
    every action's chance of winning, q to leave (exit 0; Ctrl-C: 130).  Ends with the score
    and the built-in policies on the same deal; --save keeps your moves for friday review;
    --actions goes on with a game left early."""
    import secrets
    from sim.contract import callable_decide
    from sim.lab.files import check_file
    from sim.lab.coach import Coach
    from sim.play.terminal import play_in_terminal
    check_level(level)
    check_file(save, (".txt",), force, "save")
    if actions is not None and seed is None:
        raise UsageError("--actions goes on with a game: give its --seed (and --game)")
    seed = secrets.randbelow(1 << 31) if seed is None else seed
    options = parse_options(option)
    hinter = load_policy(hint)                              # a bad --hint fails first
    if "reference" not in hinter.engines:
        raise UsageError(f"--hint {hint} needs the fast engine's state: choose another hint "
                         "policy (play runs the reference engine)")
    callable_decide(hinter)           # compiled now: a return type no action id fails here
    moves = [] if actions is None else left_early(actions, level, seed, game, options)
    raise typer.Exit(play_in_terminal(
        level, seed, game, hinter, options, ids, Coach(level, seed, game, options, rollouts),
        coach, None if save is None else _saver(save, level, seed, game, option), moves))


def left_early(path: Path, level: int, seed: int, game: int, options) -> list[int]:
    """The moves of a game left early, checked before the game starts (policies.transcript:
    an illegal move, one after the end, a game played to its end are refused)."""
    from policies.scripted import ScriptedPolicy
    from sim.reference import Game
    pol = ScriptedPolicy.from_file(path)
    if pol.shuffles:
        raise UsageError(f"{pol.transcript.source} gives table shuffles: play deals from the "
                         "seed only (replay --deal --actions shows a table game)", "actions")
    g = Game(level, seed, game, pol, options)
    if not play_moves(pol, g.play, lambda: g.trace[-1]):
        raise UsageError(f"{pol.transcript.source}: its moves play the game to its end "
                         f"(score {g.score}): nothing to go on with (friday replay shows it)",
                         "actions")
    return pol.ids


def _saver(path: Path, level: int, seed: int, game: int, option: list[str]):
    """Writes the moves with the commands that review, replay and continue them (``#``
    lines); no file for a game left before its first move."""
    import shlex
    from sim.lab.files import write_text
    opts = "".join(f" --option {shlex.quote(o)}" for o in option)
    game_args = f"--level {level} --seed {seed} --game {game}{opts}"
    where = f"{game_args} --actions {shlex.quote(str(path))}"

    def save(moves, finished: bool = True):
        if not moves:
            typer.echo(f"no move made: nothing written to {path}")
            return
        go_on = "" if finished else f"# friday play {where} --save FILE (go on)\n"
        write_text(path, f"# friday play {game_args}: {len(moves)} moves"
                         f"{'' if finished else ', left early'}\n# friday review {where}\n"
                         f"# friday replay {where}\n{go_on}" + "".join(f"{m}\n" for m in moves))
        typer.echo(f"wrote {path}: your {len(moves)} moves (friday review {where})")
    return save


@command(app)
def policies():
    """List the policies, what they do, and their parameters."""
    from policies import builtin_policies
    for pol in builtin_policies(search=True).values():
        typer.echo(f"{pol.name:14s} {pol.description}")
        params = [f"{name}={value:g}" for name, value in zip(pol.param_names, pol.params)]
        for text in params + [f"{k}={v}" for k, v in getattr(pol, "text_params", {}).items()]:
            typer.echo(f"{'':14s}   --param {text}")
