"""Pirate balance and sweeps (sim.lab.balance): counts against the traces, statistics against
scipy, common random numbers, the CLI's files and errors."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from policies import load_policy
from sim import cards as C
from sim.cardtable import build
from sim.cli import app
from sim.fast import run_batch
from sim.lab import balance as B
from sim.lab import balance_crossing as X
from sim.lab import stats as S
from sim.reference import play_batch, play_game

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_counts_match_the_traces():
    """Faced first / second and beaten, counted from rows, equal what the traces show (R9.1)."""
    pol = load_policy("expert")
    n = 60
    rows = play_batch(1, 21, 0, n, pol)
    fast = run_batch(1, 21, 0, n, pol)
    assert all(np.array_equal(rows[k], fast[k]) for k in rows)
    c = B.Games(rows).counts()
    expect = {k: np.zeros(10) for k in ("faced_first", "beaten_first", "faced_second",
                                        "beaten_second")}
    for g in range(n):
        game = play_game(1, 21, g, pol)
        fights = []                       # [pirate, won]; a lost game may end mid-fight
        for e in game.trace:
            if e["e"] == "fight_start":
                pirate = e["kind"] == "pirate"
                if pirate:
                    fights.append([e["opponent"], False])
            elif e["e"] == "fight_end" and pirate:
                fights[-1][1] = bool(e["won"])
        for k, (pirate, won) in enumerate(fights):
            which = "first" if k == 0 else "second"
            expect[f"faced_{which}"][pirate - 59] += 1
            expect[f"beaten_{which}"][pirate - 59] += won
    assert sum(expect["faced_first"]) > 10          # the sample reaches the pirates
    for k, v in expect.items():
        assert np.array_equal(c[k], v), k


def test_statistics_against_scipy():
    table = np.array([[130, 870], [170, 830]])
    chi2, p, _, _ = stats.chi2_contingency(table, correction=False)
    assert S.two_proportion_p(130, 1000, 170, 1000) == pytest.approx(p, rel=1e-9)
    assert np.allclose(S.holm([0.01, 0.04, 0.03, 0.5]), [0.04, 0.09, 0.09, 0.5])
    assert S.mcnemar_exact(10, 20) == pytest.approx(stats.binomtest(20, 30).pvalue)
    assert S.mcnemar_exact(0, 0) == 1.0
    r, lo, hi = S.rate_with_interval(30, 100)
    ci = stats.binomtest(30, 100).proportion_ci(method="wilson")
    assert (r, lo, hi) == pytest.approx((0.3, ci.low, ci.high), abs=1e-9)


def test_interpolation():
    assert X._interpolate([10, 20, 30], np.array([0.2, 0.1, -0.1])) == pytest.approx(25.0)
    assert np.isnan(X._interpolate([10, 20], np.array([0.2, 0.1])))
    assert X._interpolate([40, 30, 20], np.array([-0.2, 0.0, 0.1])) == pytest.approx(30.0)


@pytest.mark.parametrize("text, values", [("20:40:5", [20, 25, 30, 35, 40]), ("3:1", [3, 2, 1]),
                                          ("5,7,9", [5, 7, 9]), ("0:9:4", [0, 4, 8])])
def test_parse_values(text, values):
    assert B.parse_values(text) == values


def test_labels_name_the_special_pirates_by_ability():
    labels = [B.pirate_label(p) for p in C.PIRATE_IDS]
    assert len(set(labels)) == 10 and not any("*" in s for s in labels)
    assert B.pirate_label(63) == "10/40" and "+2/aging" in B.pirate_label(67)
    assert B.pirate_label(63, build(sets=["63.pirate_hazard_value=35"])) == "10/35"


def test_sweep_uses_the_same_deals():
    """Common random numbers: the sweep's printed value is the plain run, game for game; the
    pirate's beaten rate falls as its value rises, and the crossing lies in the range."""
    pol = load_policy("expert")
    res = B.sweep("63.pirate_hazard_value", [10, 40, 80], 1, 1500, 3, pol, bootstrap=20)
    tab = res["table"].set_index("value")
    plain = run_batch(1, 3, 0, 1500, pol)
    assert tab.loc[40, "win_rate"] == plain["won"].mean()
    assert tab.loc[10, "beaten_rate"] > tab.loc[40, "beaten_rate"] > tab.loc[80, "beaten_rate"]
    assert tab.loc[80, "beaten_rate"] == 0.0
    c = res["crossing"]
    assert 10 < c["value"] < 80 and c["lo"] <= c["value"] <= c["hi"]
    target = B.sweep("16.fight_value", [0, 2, 4], 1, 500, 3, pol, target_rate=0.99, bootstrap=5)
    assert target["crossing"]["what"].startswith("win rate")


def test_balance_commands(tmp_path):
    out = tmp_path / "study"
    args = ["balance", "pirates", "--level", "1,4", "--games", "600", "--seed", "2", "--out", out,
            "--what-if-games", "300", "--what-if-values", "20:40:10"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    for name in ("pirates.md", "pirates.csv", "pirate_pairs.csv", "pirate_ranking.png",
                 "pirate_pairs_level1.png", "pirate_pairs_level4.png", "pirate_what_if.png"):
        assert (out / name).stat().st_size > 0, name
    md = (out / "pirates.md").read_text()
    assert "## Level 4" in md and "What-if" in md and "5/*" not in md
    again = run(*args)                                        # files exist: refused, one line
    assert again.exit_code == 2 and again.output.count("error:") == 1
    assert "--force" in again.output
    png = tmp_path / "sweep.png"
    result = run("balance", "sweep", "--set", "63.pirate_hazard_value", "--values", "20:40:10",
                 "--level", "4", "--games", "400", "--bootstrap", "10", "--out", png,
                 "--csv", tmp_path / "sweep.csv")
    assert result.exit_code == 0, result.output
    assert png.stat().st_size > 0 and "beaten when faced" in result.output


@pytest.mark.parametrize("args, message", [
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "40"], "at least two values"),
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "a:b"], "must look like A:B"),
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "40:20:5"], "never goes"),
    (["sweep", "--set", "63.pirate_hazard_value=3", "--values", "1:3"], "exactly one --set"),
    (["sweep", "--set", "63.nofield", "--values", "1:3"], "unknown field 'nofield'"),
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "-5:5"], "is impossible"),
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "1:3", "--target", "2"],
     "strictly between 0 and 1"),
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "1:3", "--level", "9"],
     "unknown level"),
    (["sweep", "--set", "63.pirate_hazard_value", "--values", "1:3", "--out", "x.jpg"],
     "must end in .png"),
    (["pirates", "--level", "5"], "unknown level"),
    (["pirates", "--policy", "nope", "--games", "1"], "unknown policy"),
    (["pirates", "--set", "63.fight_value=1", "--games", "1"], "has no field 'fight_value'"),
    (["pirates", "--what-if-values", "1", "--games", "1"], "at least two values"),
])
def test_balance_bad_input(args, message):
    result = run("balance", *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_the_sweep_page_quotes_results_sweep_csv():
    """docs/results/sweep.md shows results/sweep_9_35_level4.csv as a table (generated from the
    file when the site is built), names the command that made it, and its prose quotes the
    CSV: the crossing value, the printed value's rates, the range of the steps' differences."""
    import re
    from pathlib import Path
    import numpy as np
    import pandas as pd
    root = Path(__file__).parent.parent
    page = (root / "docs" / "results" / "sweep.md").read_text()
    assert "Made by `friday balance sweep --set 9/35.pirate_hazard_value --values 25:41:2 " \
           "--level 4 --games 100000 --seed 1 --out results/sweep_9_35_level4.png --csv " \
           "results/sweep_9_35_level4.csv --force`" in page
    assert "<!-- friday:csv results/sweep_9_35_level4.csv -->" in page
    csv = pd.read_csv(root / "results" / "sweep_9_35_level4.csv")
    assert len(csv) >= 8 and (csv["games"] == 100_000).all()
    gap = (csv["beaten_rate"] - csv["median_other_beaten"]).to_numpy()
    i = int(np.flatnonzero((gap[:-1] > 0) & (gap[1:] <= 0))[0])
    v0, v1 = csv["value"][i], csv["value"][i + 1]
    crossing = v0 + (v1 - v0) * gap[i] / (gap[i] - gap[i + 1])
    assert float(re.search(r"at value \*\*(\S+)\*\*", page).group(1)) == pytest.approx(crossing, abs=0.05)
    printed = csv[csv["value"] == 35].iloc[0]
    rates = re.search(r"Printed \(value 35\), it is beaten when faced (\S+)% of the\s+time "
                      r"against (\S+)% for the median pirate", page)
    assert float(rates.group(1)) == pytest.approx(100 * printed["beaten_rate"], abs=0.05)
    assert float(rates.group(2)) == pytest.approx(100 * printed["median_other_beaten"], abs=0.05)
    steps = -100 * csv["win_diff_vs_previous"].dropna()
    low, high = re.search(r"cost the expert (\S+)-(\S+)\s+points", page).groups()
    assert (float(low), float(high)) == (round(steps.min(), 2), round(steps.max(), 2))


def _guide_sections():
    """docs/how-to/pirate-balance.md, flattened, cut into its three parts on the full studies:
    learned's, the veteran's and what changes with strength."""
    import re
    from pathlib import Path
    root = Path(__file__).parent.parent
    page = (root / "docs" / "how-to" / "pirate-balance.md").read_text()
    found = re.search(r"^## What the full study found\n(.*)^### Under the veteran, a weaker player\n"
                      r"(.*)^### Which answers change with strength\n(.*?)^## ", page, re.M | re.S)
    assert found, "the guide's sections on the full studies moved"
    return root, page, found.groups()


def _check_guide_quotes_study(section, results, policy):
    """A section of the guide quotes the study of `results` (friday balance pirates ...): its
    command, its table of the hardest and easiest pirates (pirates.csv, beaten when faced with
    its Wilson interval), its what-if value and the win rates at 40 and the value below it
    (pirates.md)."""
    import re
    import pandas as pd
    study = (results / "pirates.md").read_text()
    command = re.search(r"Made by `([^`]+)`", study).group(1)
    assert f"--policy {policy} " in command
    assert command in " ".join(section.split())
    table = pd.read_csv(results / "pirates.csv")
    assert sorted(table["level"].unique()) == [1, 2, 3, 4]
    assert (table.groupby("level")["drawn"].sum() == 2_000_000).all()   # two pirates a game
    for level, d in table.groupby("level"):
        d = d.sort_values("rank")
        row = re.search(rf"^\| {level} \| (.+?) (\S+)% \[(\S+)%, (\S+)%\] \| (.+?) (\S+)% "
                        rf"\[(\S+)%, (\S+)%\] \|$", section, re.M)
        assert row, level
        hard, easy = d.iloc[0], d.iloc[-1]
        assert row.group(1) == hard["label"] and row.group(5) == easy["label"]
        want = (hard["beaten_rate"], hard["beaten_lo"], hard["beaten_hi"],
                easy["beaten_rate"], easy["beaten_lo"], easy["beaten_hi"])
        assert row.group(2, 3, 4, 6, 7, 8) == tuple(f"{100 * w:.2f}" for w in want), level
    value, low, high = re.search(r"value\s+\*\*(\S+)\*\* \(95% interval \[(\S+), (\S+)\]\)",
                                 section).groups()
    assert f"pirate_hazard_value = {value}** (95% interval [{low}, {high}]" in study
    lower, before, after = re.search(r"from 40 to (\d+) lifts\s+the level-4 win rate from (\S+)% "
                                     r"to (\S+)%", section).groups()
    assert int(lower) < float(value)
    assert re.search(rf"^\| 40 \| 100,000 \| {re.escape(before)}% ", study, re.M)
    assert re.search(rf"^\| {lower} \| 100,000 \| {re.escape(after)}% ", study, re.M)
    return value, low, high


def test_the_pirate_balance_guide_quotes_results_pirates_learned():
    """The guide's full study is the one under `learned`, results/pirates_learned/."""
    root, _, (learned, _, _) = _guide_sections()
    _check_guide_quotes_study(learned, root / "results" / "pirates_learned", "learned")


def test_the_pirate_balance_guide_quotes_results_pirates():
    """docs/how-to/pirate-balance.md quotes the study of results/ (friday balance pirates ...
    --policy veteran) as the weak player's contrast: its table of the hardest and easiest
    pirates is results/pirates.csv, its what-if numbers are those of results/pirates.md."""
    root, _, (_, veteran, _) = _guide_sections()
    _check_guide_quotes_study(veteran, root / "results", "veteran")


def test_the_pirate_balance_guide_quotes_results_pirate_strengths():
    """What changes with strength, as results/pirate_strengths.md has it (with its command):
    hardest and easiest by win rate when drawn per policy and level, the veteran-learned rank
    correlations, the level-4 beaten-when-faced ranges and the two fair values."""
    import re
    root, page, (_, _, change) = _guide_sections()
    text = " ".join(change.split())
    strengths = (root / "results" / "pirate_strengths.md").read_text()
    assert re.search(r"Made by `([^`]+)`", strengths).group(1) in text
    per_level = dict(re.findall(r"^## Level (\d)\n(.*?)(?=^## |\Z)", strengths, re.M | re.S))
    assert sorted(per_level) == ["1", "2", "3", "4"]
    ends = {(policy, level): (hard, easy, low, high)
            for level, body in per_level.items()
            for policy, hard, easy, low, high in re.findall(
                r"^\* (\w+): hardest \*\*(.+?)\*\*, easiest \*\*(.+?)\*\*, .*?; beaten when faced "
                r"from (\S+)% to (\S+)%\.$", body, re.M)}
    hardest = re.search(r"The hardest pirate does not change: (.+?) at every level under the "
                        r"veteran and under `learned`, and at level 4 under the search\.", text)
    assert hardest
    assert {v[0] for v in ends.values()} == {hardest.group(1)}
    assert [k for k in ends if k[0] == "search"] == [("search", "4")]
    easy = re.search(r"The easiest does: (.+?) at every level under the veteran; under `learned` "
                     r"(.+?) at levels 1, 3 and 4 and (.+?) at level 2; under the search (.+?)\.",
                     text).groups()
    assert all(ends["veteran", level][1] == easy[0] for level in "1234")
    assert all(ends["learned", level][1] == easy[1] for level in "134")
    assert ends["learned", "2"][1] == easy[2] and ends["search", "4"][1] == easy[3]
    *rhos, p3 = re.search(r"win rates when drawn is (\S+), (\S+), (\S+) and (\S+) at levels 1 to "
                          r"4 \(level 3: p = (\S+)\)", text).groups()
    for level, rho in zip("1234", rhos):
        want = re.search(r"Ranks by win rate when drawn, veteran against learned: Spearman rho = "
                         r"(\S+) \(p = (\S+)\)", per_level[level]).groups()
        assert rho == want[0], level
        if level == "3":
            assert p3 == want[1]
    ranges = re.search(r"at level 4, beaten when faced runs from (\S+)% to (\S+)% under the "
                       r"veteran, (\S+)% to (\S+)% under `learned` and (\S+)% to (\S+)% under the "
                       r"search\.", text).groups()
    assert ranges == (*ends["veteran", "4"][2:], *ends["learned", "4"][2:], *ends["search", "4"][2:])
    fair = re.search(r"moves from (\S+) \(95% interval \[(\S+), (\S+)\]\) under the veteran to "
                     r"(\S+) \(95% interval \[(\S+), (\S+)\]\) under `learned`", text).groups()
    for policy, (value, low, high) in zip(("veteran", "learned"), (fair[:3], fair[3:])):
        assert (f"* {policy}: 10/40 is beaten as often as the median other pirate at "
                f"pirate_hazard_value = {value} (95% interval [{low}, {high}])") in strengths


def test_the_pirate_balance_guide_quotes_the_cost_of_learned():
    """The price of the policy the study uses, as results/ladder.md (time / expert's) and
    results/strength.md (time per game per core) measured it, each with its command."""
    import re
    root, page, _ = _guide_sections()
    text = " ".join(page.split())

    def cell(results_file, level, policy, column):
        body = (root / "results" / results_file).read_text()
        assert re.search(r"Made by `([^`]+)`", body).group(1) in text, results_file
        section = re.search(rf"^### Level {level}\n(.*?)(?=^### |\Z)", body, re.M | re.S).group(1)
        row = re.search(rf"^\| {re.escape(policy)} \|.*$", section, re.M).group(0)
        return [c.strip() for c in row.strip("|").split("|")][column]

    ladder = re.search(r"A `learned` game costs (\S+) the expert's time at level 1 and (\S+) at "
                       r"level 4, a `veteran` game (\S+) and (\S+) \(", text).groups()
    assert ladder == (cell("ladder.md", 1, "`learned`", 5), cell("ladder.md", 4, "`learned`", 5),
                      cell("ladder.md", 1, "`veteran`", 5), cell("ladder.md", 4, "`veteran`", 5))
    strength = re.search(r"`learned` takes (\S+ us) a game against the expert's (\S+ us) at level 1 "
                         r"and (\S+ us) against (\S+ us) at level 4", text).groups()
    assert strength == tuple(cell("strength.md", level, policy, 5) for level, policy in
                             ((1, "learned"), (1, "expert"), (4, "learned"), (4, "expert")))


def _one_replicate_at_a_time(runs, values, card, target_rate, bootstrap, seed):
    """The bootstrap as it was first written: one replicate's game weights, then every
    value's counts under them (Games.counts(w)), one replicate after the other."""
    rng = np.random.default_rng(seed)
    i, boots = card - B.FIRST_PIRATE, []
    for _ in range(bootstrap):
        w = rng.poisson(1.0, len(runs[0])).astype(np.float64)
        if target_rate is not None:
            gap = np.array([np.average(g.won, weights=w) - target_rate for g in runs])
        else:
            gap = np.array([r[i] - X.median_other(r, i)
                            for r in (B.beaten_rates(g.counts(w)) for g in runs)])
        boots.append(X._interpolate(values, gap))
    return np.array(boots)


@pytest.mark.parametrize("target", ["median pirate", "win rate"])
def test_the_blocked_bootstrap_is_the_replicates_one_at_a_time(monkeypatch, target):
    """The sweep's bootstrap (sim.lab.balance_crossing), computed a block of replicates at a
    time as matrix products, gives the very numbers of one replicate at a time (the same
    Poisson draws, exact sums), whatever the block: a sweep's interval, results/ and the
    notebook's cells do not move, and Ctrl-C's report no longer waits on a slow loop."""
    pol = load_policy("expert")
    values = [10, 25, 40, 80]
    runs = [B.Games(run_batch(1, 3, 0, 700, pol, cards=build(
        sets=[f"63.pirate_hazard_value={v}"]))) for v in values]
    target_rate = None if target == "median pirate" else float(
        (runs[0].won.mean() + runs[-1].won.mean()) / 2)      # crossed between 10 and 80
    want = _one_replicate_at_a_time(runs, values, 63, target_rate, 23, 5)
    assert np.isfinite(want).sum() > 10
    for block in (1, 700 * 4, X.BOOTSTRAP_BLOCK):
        monkeypatch.setattr(X, "BOOTSTRAP_BLOCK", block)
        got = X.crossing(runs, values, 63, True, target_rate, 23, 5)
        ok = want[~np.isnan(want)]
        assert (got["lo"], got["hi"]) == tuple(np.percentile(ok, [2.5, 97.5]))
        assert got["bootstrap_no_crossing"] == int(np.isnan(want).sum())


@pytest.mark.parametrize("kw, error, message", [
    ({"values": [40]}, "values", "a sweep needs at least two values"),
    ({"values": [40, 40]}, "values", "repeats a value"),
    ({"values": [1.5, 2]}, "values", "values must be a list of whole numbers or a text"),
    ({"values": 40}, "values", "values must be a list of whole numbers or a text"),
    ({"values": "a:b"}, "values", "must look like A:B"),
    ({"values": list(range(201))}, "values", "201 values; at most 200"),
    ({"bootstrap": -1}, "bootstrap", "bootstrap must be a whole number of replicates, 0 or more"),
    ({"bootstrap": "200"}, "bootstrap", "bootstrap must be a whole number"),
    ({"target_rate": 2}, "target_rate", "target_rate must be a win rate strictly between 0 and 1"),
    ({"target_rate": "20%"}, "target_rate", "strictly between 0 and 1, not '20%'"),
    ({"target_rate": 0.0}, "target_rate", "strictly between 0 and 1, not 0.0"),
    ({"level": "all"}, "level", "unknown level 'all'"),
    ({"games": 0}, "games", "games must be a positive whole number"),
    ({"seed": 2**63}, "seed", "seed 9223372036854775808 out of range"),
    ({"threads": 0}, "threads", "threads must be 1.."),
])
def test_sweep_refuses_bad_input_before_any_game(kw, error, message, monkeypatch):
    """sim.lab.balance.sweep checks what ``friday balance sweep`` checks, in the library's
    words (a FridayError naming the argument), before any game is compiled or played."""
    from sim.errors import FridayError
    from sim.lab import run as R

    def no_games(*args, **kwargs):
        raise AssertionError("games were played before the input was checked")
    monkeypatch.setattr(R.InProcess, "prepare", no_games)
    monkeypatch.setattr(R, "play_chunk", no_games)
    args = {"target": "63.pirate_hazard_value", "values": [20, 30], "level": 4, "games": 100,
            "seed": 1, "policy": "expert", **kw}
    with pytest.raises(FridayError) as err:
        B.sweep(**args)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert getattr(err.value, "argument", None) == error


def test_what_if_of_a_level_the_study_did_not_play_is_refused():
    study = B.pirate_study([1], 200, 2, "expert")
    with pytest.raises(B.UsageError, match=r"^level 4 was not played in the study \(its "
                                           r"levels: 1\)$"):
        B.what_if_hardest(study, 4, None, 100, 2, "expert")


def test_balance_pirates_and_sweep_print_the_run_header(tmp_path, fast_engine):
    """The header of ``friday simulate`` (sim.lab.simulate.header), in a fresh process:
    policy with its file and hash, engine, seed, options, parameters, the edited cards."""
    from helpers import run_cli
    fast_engine("expert")
    result = run_cli("balance", "pirates", "--level", "1", "--games", "50", "--seed", "4",
                     "--set", "63.pirate_hazard_value=35", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("friday-lab: policy expert (file ") and "sha256 " in lines[0]
    assert ", fast engine, seed 4, options old_age=lose" in lines[0]
    assert lines[1].startswith("  policy parameters: reserve_green=0")
    assert lines[2].startswith("  cards edited [") and "63.pirate_hazard_value=35" in lines[2]
    result = run_cli("balance", "sweep", "--set", "63.pirate_hazard_value", "--values", "30,35",
                     "--games", "50", "--bootstrap", "0", "--seed", "4", "--quiet", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("friday-lab: policy expert (file ")


def test_ctrl_c_stops_a_sweep_and_its_csv_says_it_is_partial(tmp_path, fast_engine):
    """The first Ctrl-C stops a long sweep after the range in flight (its bootstrap over the
    finished games no longer a slow loop), reports the games finished and writes --csv with
    ``complete`` False on every row; exit code 130, no process left.  (How fast it stops is
    measured by no test.)"""
    from helpers import COUNTED, interrupt_cli
    fast_engine("expert")
    run_ = interrupt_cli("balance", "sweep", "--set", "63.pirate_hazard_value", "--values",
                         "20:40:5", "--level", "4", "--games", "100000000", "--csv", "s.csv",
                         "--threads", "2", cues=[COUNTED], cwd=tmp_path)
    out, err = run_.stdout, run_.stderr
    assert run_.returncode == 130 and "Traceback" not in out + err, out + err
    assert out.startswith("friday-lab: policy expert") and "wrote s.csv (marked complete=False" in out
    import pandas as pd
    csv = pd.read_csv(tmp_path / "s.csv")
    played = int(csv["games"].iloc[0])
    assert list(csv["value"]) == [20, 25, 30, 35, 40] and (csv["games"] == played).all()
    assert 0 < played < 100_000_000 and not csv["complete"].any()
    assert f"interrupted after {played:,} games" in err and not run_.group_left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv"]


def test_a_sweeps_first_range_is_shared_by_its_values(fast_engine):
    """Before any rate is measured, the first range of games plays every setup (every value
    of a sweep): it holds one setup's first chunk in all (1,024 games of a batch policy), not
    that many per value, so that a sweep of many values stops as soon after Ctrl-C as a plain
    run (sim.lab.run InProcess)."""
    from sim.lab.run import InProcess, Plan, Run, Setup
    pol = fast_engine("random")
    tables = [build(sets=[f"63.pirate_hazard_value={v}"]) for v in range(20, 36, 2)]
    plan = Plan(tuple(Setup(pol, cards=t) for t in tables), (1,), 5000, 1)
    with Run(plan, InProcess(threads=1), quiet=True) as run:
        first = next(iter(run))
    assert first.count == 1024 // len(tables) and len(first.results) == len(tables)


@pytest.mark.parametrize("taken, more, says", [
    ("pirate_pairs_level4.png", [], "already has pirate_pairs_level4.png"),
    ("pirate_what_if.png", ["--what-if-games", "3"], "already has pirate_what_if.png"),
    ("pirate_pairs_level1.png/", ["--force"], "pirate_pairs_level1.png is a folder"),
])
def test_balance_pirates_refuses_a_folder_holding_any_file_it_writes(tmp_path, taken, more,
                                                                     says):
    """Every file of --out is checked before any game (a level's pair figure, the what-if
    figure): nothing overwritten without --force, nothing half-written (a folder in a file's
    place, even with --force)."""
    out = tmp_path / "study"
    if taken.endswith("/"):
        (out / taken).mkdir(parents=True)
    else:
        out.mkdir()
        (out / taken).write_text("keep")
    result = run("balance", "pirates", "--level", "1,4", "--games", "5", "--out", str(out),
                 "--quiet", *more)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and lines[-1].startswith("error: ") and says in lines[-1], lines
    assert sorted(p.name for p in out.iterdir()) == [taken.rstrip("/")]
    assert taken.endswith("/") or (out / taken).read_text() == "keep"
