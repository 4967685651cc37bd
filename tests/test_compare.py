"""friday compare and the sim.lab API: the same deals for every policy, paired statistics."""
import numpy as np
import pandas as pd
from pathlib import Path
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.lab import compare, play_paired, ranking, simulate, summarize
from sim.rules import RESULT_COLUMNS as COLUMNS

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("args,message", [
    (["nope", "expert"], "unknown policy 'nope'"),
    (["expert", "expert[nosuch=1]"], "no parameter 'nosuch'"),
    (["expert", "expert[cull_max_missing=0"], "malformed policy variant"),
    (["expert", "expert[cull_max_missing=nan]"], "finite number"),
    (["expert"], "at least two policies"),
    ([], "at least two policies"),
    (["expert", "random", "--level", "0"], "unknown level"),
    (["expert", "random", "--level", "1,9"], "unknown level"),
    (["expert", "random", "--option", "old_age=maybe"], "old_age"),
    (["expert", "random", "--out", "x.csv"], ".parquet"),
    (["expert", "random", "--figure", "x.txt"], "--figure must end"),
])
def test_bad_input_is_one_error_line(args, message):
    result = run("compare", *args, *(["--games", "10"] if "--games" not in args else []))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], lines


def test_existing_out_is_refused_and_kept(tmp_path):
    out = tmp_path / "paired.parquet"
    out.write_bytes(b"keep me")
    result = run("compare", "random", "always-fight", "--level", 1, "--games", 10, "--out", out)
    assert result.exit_code == 2 and result.output.startswith("error:")
    assert len(result.output.strip().splitlines()) == 1 and "--force" in result.output
    assert out.read_bytes() == b"keep me"


def test_random_vs_always_fight_significant_by_score():
    """The issue's check: always-fight scores higher than random on the same deals."""
    result = run("compare", "random", "always-fight", "--level", 1, "--games", 20000)
    assert result.exit_code == 0, result.output
    row = compare(["random", "always-fight"], level=1, games=20000).iloc[0]
    assert row.score_diff < 0 and row.score_diff_high < 0 and row.score_p < 1e-10
    assert f"{row.score_diff:+.2f}" in result.output and "McNemar" in result.output


def test_policy_against_itself_is_identical(tmp_path):
    out = tmp_path / "same.parquet"
    result = run("compare", "expert", "expert", "--level", "1,4", "--games", 2000, "--out", out)
    assert result.exit_code == 0, result.output
    c = compare(["expert", "expert"], level=[1, 4], games=2000)
    assert (c.a_only == 0).all() and (c.b_only == 0).all()
    assert (c.win_diff == 0).all() and (c.score_diff == 0).all()
    assert (c.mcnemar_p == 1).all() and (c.score_p == 1).all()
    df = pd.read_parquet(out)
    assert len(df) == 4000 and (df["expert:score"] == df["expert #2:score"]).all()
    assert (df["expert:won"] == df["expert #2:won"]).all()


def test_paired_frame_matches_simulate_and_the_deals_are_shared(tmp_path):
    paired = play_paired(["expert", "expert[cull_max_missing=0]", "cull-green"], level=[2, 3],
                         games=700, seed=5, chunk=300)        # chunking changes nothing
    solo = simulate("expert[cull_max_missing=0]", level=[2, 3], games=700, seed=5)
    assert list(solo.columns) == list(COLUMNS)
    assert (paired["expert[cull_max_missing=0]:score"].to_numpy() == solo["score"].to_numpy()).all()
    assert (paired["pirate_1"].to_numpy() == solo["pirate_1"].to_numpy()).all()
    assert solo.attrs["policy"] == "expert[cull_max_missing=0]"
    assert solo.attrs["overrides"] == {"cull_max_missing": 0.0} and solo.attrs["seed"] == 5
    s = summarize(paired)
    assert list(s["policy"].unique()) == paired.attrs["labels"] and len(s) == 6
    assert summarize(solo)["games"].tolist() == [700, 700]


def test_three_policies_holm_and_ranking():
    c = compare(["random", "expert", "always-fight"], level=1, games=3000, seed=2)
    assert len(c) == 3 and set(zip(c.a, c.b)) == {("random", "expert"), ("random", "always-fight"),
                                                  ("expert", "always-fight")}
    assert (c.mcnemar_p_holm >= c.mcnemar_p).all() and (c.score_p_holm >= c.score_p).all()
    r = ranking(c)
    assert r.policy.tolist() == ["expert", "always-fight", "random"]
    assert r.vs_next.tolist()[:2] == ["better (wins, score)", "better (score only)"]
    result = run("compare", "random", "expert", "always-fight", "--level", 1, "--games", 3000,
                 "--seed", 2)
    assert result.exit_code == 0 and "ranking" in result.output and "(Holm)" in result.output


def test_out_and_figure(tmp_path):
    out, fig = tmp_path / "c.parquet", tmp_path / "c.png"
    result = run("compare", "cull-green", "always-fight", "--level", "all", "--games", 500,
                 "--out", out, "--figure", fig)
    assert result.exit_code == 0, result.output
    df = pd.read_parquet(out)
    assert len(df) == 2000 and {"level", "game", "cull-green:won", "always-fight:score"} <= set(df)
    import json
    import pyarrow.parquet as pq
    meta = json.loads(pq.read_schema(out).metadata[b"friday_lab"])
    assert meta["labels"] == ["cull-green", "always-fight"] and meta["seed"] == 1
    assert meta["policies"][0]["sha256"] and fig.stat().st_size > 10_000
    again = run("compare", "cull-green", "always-fight", "--games", 500, "--out", out, "--force")
    assert again.exit_code == 0


def test_interrupt_keeps_finished_chunks(monkeypatch, tmp_path):
    """Ctrl-C in the second range of games: the first range of both policies is compared and
    written, exit code 130 (sim.lab.run)."""
    import sim.lab.run as R
    real, calls = R.play_chunk, []

    def flaky(*args, **kw):
        calls.append(1)
        if len(calls) == 3:          # in the second range, after the first policy
            raise KeyboardInterrupt
        return real(*args, **kw)
    monkeypatch.setattr(R, "play_chunk", flaky)
    out = tmp_path / "part.parquet"
    result = run("compare", "random", "always-fight", "--level", 1, "--games", 300, "--chunk",
                 100, "--out", out)
    assert result.exit_code == 130, result.output
    assert "INTERRUPTED" in result.output and "interrupted after 100 games" in result.output
    assert len(pd.read_parquet(out)) == 100


def test_report_any_policies(tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])   # policy files shown relative
    out = tmp_path / "rep"
    result = run("report", "cull-green", "always-fight[bold=2]", "--level", "1,4", "--games", 400,
                 "--option", "old_age=continue", "--out", out)
    assert result.exit_code == 2 and "no parameter 'bold'" in result.output
    result = run("report", "cull-green", "always-fight", "random", "--level", "1,4", "--games", 400,
                 "--option", "old_age=continue", "--out", out)
    assert result.exit_code == 0, result.output
    md = (out / "policies.md").read_text()
    assert "friday report cull-green always-fight random --level 1,4 --games 400 --seed 1 " \
           "--option old_age=continue" in md
    assert "| 4 | cull-green - always-fight |" in md and "McNemar" in md and "Ranking" in md
    assert (out / "paired_differences.png").exists() and not (out / "pirates.md").exists()
    assert "file `policies/cull_green.py`" in md
    assert f"rule options {OPTIONS_TEXT})" in md and "{'old_age'" not in md
    assert "wrote policies.md" in result.output
    again = run("report", "random", "always-fight", "--level", 1, "--games", 10, "--out", out)
    assert again.exit_code == 2 and "--force" in again.output
    for args in (["--level", "0"], ["nope"]):
        bad = run("report", *args, "--games", 10, "--out", tmp_path / "x")
        assert bad.exit_code == 2 and bad.output.startswith("error:"), bad.output


OPTIONS_TEXT = "old_age=continue, step_minus1_stacks=true, plus1_counts_destroyed=true"


def test_rule_options_are_printed_alike_by_every_command():
    """simulate, compare and the readable log print the options in one form (sim.rules
    options_text), the report too (test_report_any_policies), never as a Python dict."""
    opt = ["--option", "old_age=continue", "--level", 1]
    outputs = [run("simulate", "--games", 50, *opt), run("compare", "random", "expert",
                                                         "--games", 50, *opt),
               run("replay", "--seed", 3, *opt)]
    for result in outputs:
        assert result.exit_code == 0, result.output
        assert OPTIONS_TEXT in result.output and "{'old_age'" not in result.output


def test_compare_out_has_the_pirate_columns_of_simulate_out(tmp_path):
    """Each side of ``compare --out`` carries simulate's pirate_1_beaten, pirate_2_beaten and
    pirate_first (which pirate a compared game was lost to), equal to simulate's rows."""
    out = tmp_path / "paired.parquet"
    result = run("compare", "expert", "cull-green", "--level", "1,4", "--games", 400, "--seed", 3,
                 "--out", out)
    assert result.exit_code == 0, result.output
    df = pd.read_parquet(out)
    for policy in ("expert", "cull-green"):
        solo = simulate(policy, level=[1, 4], games=400, seed=3)
        for col in ("pirate_1_beaten", "pirate_2_beaten", "pirate_first", "won", "score"):
            assert np.array_equal(df[f"{policy}:{col}"].to_numpy().astype(np.int64),
                                  solo[col].to_numpy().astype(np.int64)), (policy, col)
        assert (df[f"{policy}:pirate_first"] >= 0).any()          # some games reach a pirate
        lost_to_pirate = (df[f"{policy}:step"] == "pirates") & ~df[f"{policy}:won"]
        assert lost_to_pirate.any()
        beaten = df[f"{policy}:pirate_1_beaten"] + df[f"{policy}:pirate_2_beaten"]
        assert (beaten[df[f"{policy}:won"]] == 2).all() and (beaten[lost_to_pirate] < 2).all()


@pytest.mark.parametrize("bad, message", [
    ([1, 2, 3], "summarize takes a frame of game results (from sim.lab.simulate or "
                "play_paired), not list [1, 2, 3]"),
    (None, "summarize takes a frame of game results (from sim.lab.simulate or play_paired), "
           "not NoneType None"),
    (pd.DataFrame({"level": [1], "won": [True]}),
     "summarize takes a frame of game results (from sim.lab.simulate or play_paired): this "
     "one lacks the column(s) score, step, cause"),
])
def test_summarize_refuses_what_is_not_a_result_frame(bad, message):
    from sim.errors import UsageError
    with pytest.raises(UsageError) as err:
        summarize(bad)
    assert str(err.value) == message


def test_simulate_reference_engine_gives_the_same_rows():
    fast = simulate("random", level=2, games=30, seed=9)
    ref = simulate("random", level=2, games=30, seed=9, engine="reference")
    pd.testing.assert_frame_equal(fast, ref)
    assert ref.attrs["engine"] == "reference"


def test_compare_with_an_edited_card_table():
    """--set reaches every policy of a comparison (the same edited deals) and is recorded."""
    from sim.cardtable import build
    from sim.fast import run_batch
    from sim.lab import play_paired
    from policies import load_policy
    table = build(sets=["63.pirate_hazard_value=0"])
    paired = play_paired(["expert", "cull-green"], 4, 400, 2, cards=table)
    want = run_batch(4, 2, 0, 400, load_policy("expert"), cards=table)
    assert np.array_equal(paired["expert:won"].to_numpy(), want["won"].astype(bool))
    assert paired.attrs["cards"]["table"] == "edited" and paired.attrs["cards"]["changes"]


def _fake_comparison(policies=("p1", "p2", "p3", "p4", "p5"), levels=(1, 2, 3, 4)):
    """A compare_paired-like frame: every pair of five policies on four levels (10 pairs)."""
    from itertools import combinations
    rows = [{"level": lv, "a": a, "b": b, "games": 1000, "win_diff": d / 100,
             "win_diff_low": d / 100 - 0.01, "win_diff_high": d / 100 + 0.01, "score_diff": d,
             "score_diff_low": d - 1, "score_diff_high": d + 1}
            for lv in levels for k, (a, b) in enumerate(combinations(policies, 2))
            for d in [(k - 4) * 3.0]]
    out = pd.DataFrame(rows)
    out.attrs["seed"] = 1
    return out


def test_paired_differences_figure_is_compact_labelled_and_its_titles_apart():
    """Ten pairs on four levels: every pair named on the y axis (not by colour alone), the
    main title, the two row titles and the panel titles do not overlap, and the image is
    compact (results/paired_differences.png was 1210 x 2376 px, mostly empty)."""
    import matplotlib.pyplot as plt
    from sim.lab import plot_paired_differences
    fig = plot_paired_differences(_fake_comparison())
    width, height = fig.get_size_inches() * 110          # as written (sim.lab.plots.finish)
    assert width <= 1600 and height <= 1000, (width, height)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    titles = [fig._suptitle] + [sub._suptitle for sub in fig.subfigs]
    titles += [ax.title for sub in fig.subfigs for ax in sub.axes]
    boxes = [t.get_window_extent(renderer) for t in titles]
    assert len(boxes) == 3 + 8
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (a, b)
    for sub in fig.subfigs:
        labels = [t.get_text() for t in sub.axes[0].get_yticklabels()]
        assert labels[0] == "p1 - p2" and len(labels) == 10 and labels[-1] == "p4 - p5"
    plt.close(fig)
