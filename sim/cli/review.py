"""``friday review``: one game, every decision scored by fair rollouts (sim.lab.review)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.rules import check_level, parse_options
from .common import (CardsOpt, ForceOpt, OptionOpt, PolicyOpt, QuietOpt, SeedOpt, SetOpt,
                     command, load_cards)
from .options import DealOpt, GameOpt, IdsOpt, LevelNumber, rollouts_option

app = typer.Typer()


ActionsOpt = Annotated[Optional[Path], typer.Option(
    help="the actions taken (one per line, or a JSON list): reviewed instead of --policy's")]
RolloutsOpt = Annotated[int, rollouts_option("continuations per action")]
RollerOpt = Annotated[str, typer.Option(help="the policy that plays each continuation to the "
                                             "end (veteran: about 20 times faster, a weaker "
                                             "player's chances)")]
TopOpt = Annotated[int, typer.Option(min=1, max=100, help="costliest decisions listed")]
OutOpt = Annotated[Optional[Path], typer.Option(help="Parquet file: one row per decision and "
                                                     "action")]
FigureOpt = Annotated[Optional[Path], typer.Option(help="figure of the chance of winning over "
                                                        "the game (.png, .svg or .pdf)")]
HtmlOpt = Annotated[Optional[Path], typer.Option(
    "--html", help="the html replay's page of the game (FILE.html), every action's chance "
                   "beside it")]


@command(app)
def review(
    level: LevelNumber, seed: SeedOpt, game: GameOpt = 0, policy: PolicyOpt = "expert",
    deal: DealOpt = None, actions: ActionsOpt = None, rollouts: RolloutsOpt = 1000,
    rollout_policy: RollerOpt = "learned", top: TopOpt = 5, out: OutOpt = None,
    figure: FigureOpt = None, html: HtmlOpt = None, option: OptionOpt = [],
    cards: CardsOpt = None, set_: SetOpt = [], ids: IdsOpt = False, force: ForceOpt = False,
    quiet: QuietOpt = False,
):
    """Review one game: every legal action of every decision gets its chance of winning from
    there (fair continuations: every hidden order redrawn, R1.4, played out by
    --rollout-policy), beside the game's log; then the costliest decisions.  The game is
    --policy's on the deal of --level/--seed/--game, or the --actions of a table game (with
    --deal).  Ctrl-C keeps and writes the decisions reviewed so far."""
    from sim.lab import review as V
    from sim.lab.files import check_file
    check_level(level)
    check_file(out, (".parquet",), force)
    check_file(figure, (".png", ".svg", ".pdf"), force, "figure")
    check_file(html, (".html",), force, "html")
    roll = V.load_rollout_policy(rollout_policy)
    played = _play(level, seed, game, policy, deal, actions, option, cards, set_)
    V.check_rollout_policy(played.start, roll)
    rows, stopped = _review(V, played, rollouts, roll, quiet)
    who = f"actions {actions}" if actions is not None else policy
    for line in V.log_with_review(played, rows, ids):
        typer.echo(line)
    _summary(V, played, rows, top, who, rollouts, roll.name)
    meta = {"level": level, "seed": seed, "game": game, "played_by": who, "rollouts": rollouts,
            "rollout_policy": roll.name, "deal": str(deal) if deal else None,
            "complete": not stopped}
    _write(V, rows, out, figure, meta, top)
    if html is not None:
        from sim.lab.files import write_text
        write_text(html, V.replay_page(played, rows, who, ids))
        typer.echo(f"wrote {html}")
    if stopped:
        typer.echo(f"interrupted: {rows.decision.nunique()} decisions reviewed, shown and "
                   "written", err=True)
        raise typer.Exit(130)


def _play(level, seed, game, policy, deal, actions, option, cards, set_):
    """The game to review, played through (a transcript, policies.transcript, checked against
    the rules here)."""
    from policies.transcript import read_transcript
    from sim.deal import load_deal
    from sim.lab.review import play_through
    options, table = parse_options(option), load_cards(cards, set_)
    script = read_transcript(actions) if actions is not None else None
    deal_dict = load_deal(str(deal)) if deal else None
    return play_through(level, seed, game, policy if script is None else None, deal_dict,
                        script, options, table)


def _write(V, rows, out, figure, meta, top):
    """The Parquet rows and the figure, where asked for."""
    if out is not None:
        from sim.lab.files import write_parquet
        write_parquet(rows, out, meta)
        typer.echo(f"wrote {out}")
    if figure is not None:
        from sim.lab.files import save_figure
        title = (f"level {meta['level']}, seed {meta['seed']}, game {meta['game']}: "
                 f"{meta['played_by']} (rollouts by {meta['rollout_policy']})")
        save_figure(V.figure(rows, title, top), figure, dpi=120)
        typer.echo(f"wrote {figure}")


def _review(V, played, rollouts, roll, quiet):
    """The review with a progress bar; Ctrl-C stops after the current decision."""
    from sim.lab.progress import StopFlag, progress_bar
    bar = progress_bar(quiet, unit="decisions")
    with bar, StopFlag() as flag:
        if not quiet:                          # once Ctrl-C is caught: a cue for the tests too
            typer.echo(f"reviewing {len(played.actions)} decisions: {rollouts} continuations "
                       f"per action, played out by {roll.name} (Ctrl-C: stop and keep what is "
                       "done)", err=True)
        task = bar.add_task("review", total=len(played.actions))

        def progress(done, total):
            bar.update(task, completed=done)
            bar.refresh()
        rows = V.review(played, rollouts, roll, progress, lambda: flag.stop)
    done = rows.decision.max() + 1 if len(rows) else 0
    return rows, flag.stop and done < len(played.actions)


def _summary(V, played, rows, top, who, rollouts, roll_name):
    d = V.decisions(rows)
    g = played.end
    result = g.result
    typer.echo(f"\nreviewed {len(d)} decisions with a choice ({rollouts} continuations per "
               f"action, played out by {roll_name}); {who} "
               + (f"{'won' if result['won'] else 'lost'} (score {result['score']})"
                  if result else "stopped before the end"))
    if played.note:
        typer.echo(played.note, err=True)
    if len(d):
        first = d.iloc[0]
        typer.echo(f"chance of winning at the first decision: {first.chance:.1%} after the "
                   f"action taken, {first.best_chance:.1%} after the best; decisions that "
                   f"clearly lost chance (paired 95% interval above 0): {int(d.clear.sum())}")
    worst = V.costliest(rows, top)
    if len(worst):
        typer.echo("costliest decisions:")
        for r in worst.itertuples():
            typer.echo(f"  decision {r.decision + 1} (turn {r.turn}, {r.step}, life {r.life}, "
                       f"{r.phase}): {r.taken} {r.chance:.1%}, {r.best} {r.best_chance:.1%}: "
                       f"{r.loss:.1%} lost [{r.loss_low:+.1%}, {r.loss_high:+.1%}]")
