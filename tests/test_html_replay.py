"""``friday replay --format html``: one self-contained page that steps through a game's
decisions (sim/play/html.py, sim/play/faces.py, sim/play/replay.html).

The page's frames are checked against the engines (both give the same frames; the fast
engine's own decision record, ``play_fast(record=True)``, gives the same turn, life, step and
legal actions; the actions the page names replay the very game), and the page itself in a real
headless Chromium (skipped where none is installed; ``.ci/run`` installs it): it loads without a
script error, the arrow keys and Home/End step to the right decision, and a screenshot is not
blank.  Bad option combinations are in tests/test_every_command.py."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest
from typer.testing import CliRunner

from policies import load_policy
from sim import observation as O
from sim.cli import app
from sim.play.faces import card_faces
from sim.play.html import frames, record_game
from sim.play.terminal import SORT_PHASES
from sim.rules import STEP_NAMES, Options
from sim.trace import header

CHROME = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
               if shutil.which(n)), None)
needs_chrome = pytest.mark.skipif(CHROME is None, reason="no Chromium on this machine (Debian: "
                                  "apt-get install chromium; .ci/run installs it)")
GAME = (1, 2, 0)           # level, seed, game: expert plays sort3 here (its frames held, R5.6)


def page_data(path) -> dict:
    text = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>',
                                text, re.S).group(1))


def write_page(folder, *args) -> tuple:
    out = folder / "game.html"
    level, seed, game = GAME
    result = CliRunner().invoke(app, ["replay", "--level", level, "--seed", seed, "--game", game,
                                      "--format", "html", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    return write_page(tmp_path_factory.mktemp("page"))[0]


@pytest.fixture(scope="module")
def record(fast_engine):
    """The fast engine's own record of the game: observations and legal actions by decision."""
    from sim.fast import play_fast
    return play_fast(*GAME, fast_engine("expert"), record=True)


# --- the page's data -------------------------------------------------------------------------
def test_the_page_is_one_file_with_nothing_to_fetch(page):
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.count("<script") == 3
    assert not re.search(r'\b(src|href)\s*=|@import|url\(|fetch\(|XMLHttpRequest', text)
    assert set(re.findall(r"https?://[\w./-]+", text)) == {"http://www.w3.org/2000/svg"}
    data = page_data(page)
    assert data["title"] == "Friday, level 1, seed 2, game 0: expert"
    assert len(data["frames"]) > 100 and "end" in data["frames"][-1]
    assert all(k in data["frames"][0] for k in ("turn", "life", "piles", "pirates", "offered",
                                                 "legal", "taken", "log"))


def test_every_card_has_its_faces_from_the_game_table():
    head = header("reference", 1, 1, 0, "x", Options())
    faces = card_faces(head["cards"])
    for row in head["cards"]:
        c = row["id"]
        keys = {"pirate": [f"p{c}"], "hazard": [f"r{c}", f"h{c}"]}.get(row["kind"], [f"r{c}"])
        assert all(faces[k].startswith("<svg") and faces[k].endswith("</svg>") for k in keys)
        if row["kind"] == "hazard":                        # the values by step (R3.2, R8)
            assert all(f">{v}</tspan>" in faces[f"h{c}"] for v in row["hazard"]["values"])
            assert row["name"] in faces[f"h{c}"]           # what it becomes beaten
    assert ">*</tspan>" in faces["p68"]                    # fight_remaining_hazards: no value
    assert len(faces) == 69 + 30


def test_both_engines_give_the_same_frames():
    pol = load_policy("expert")
    made = {}
    for engine in ("reference", "fast"):
        head = header(engine, *GAME, pol.name, Options())
        made[engine] = frames(head, *record_game(engine, *GAME, pol))
    assert made["reference"] == made["fast"]


def test_frames_are_the_engines_decisions(record):
    """Turn, life, step, phase and legal actions of each frame are the fast engine's recorded
    observation; the actions the frames name, played as a script, replay the very game."""
    pol = load_policy("expert")
    head = header("reference", *GAME, pol.name, Options())
    trace, decisions = record_game("reference", *GAME, pol)
    lines, fr = frames(head, trace, decisions)
    obs = record["observations"]
    assert len(fr) == len(obs) + 1
    for f, o, legal in zip(fr, obs, record["legal"]):
        assert (f["turn"], f["life"], f["step"]) == (o[O.O_TURN], o[O.O_LIFE], o[O.O_STEP])
        assert f["phase"] == O.PHASE_NAMES[o[O.O_PHASE]]
        assert len(f["legal"]) == len(legal)
    from sim.fast import play_fast
    taken = [f["legal"][f["taken"]][0] for f in fr[:-1]]
    assert play_fast(*GAME, None, actions=taken)["trace"] == record["trace"] == trace
    end = trace[-1]
    assert fr[-1]["end"]["score"] == end["score"] and fr[-1]["life"] == end["life"]
    assert STEP_NAMES[fr[-1]["step"]] == end["step"] and "legal" not in fr[-1]


def test_each_line_of_the_log_comes_once_and_sort3_waits_for_its_end():
    """The frames' log ranges cover the log in order; at a sort3 decision (R5.6) the line that
    tells what sort3 saw and did is not shown yet, as in ``friday play``."""
    pol = load_policy("expert")
    head = header("reference", *GAME, pol.name, Options())
    trace, decisions = record_game("reference", *GAME, pol)
    lines, fr = frames(head, trace, decisions)
    assert fr[0]["log"][0] == 0 and fr[-1]["log"][1] == len(lines)
    assert all(a["log"][1] == b["log"][0] for a, b in zip(fr, fr[1:]))
    text = ["".join(t for t, _ in line) for line in lines]
    sorts = [k for k, (o, *_rest) in enumerate(decisions) if o[O.O_PHASE] in SORT_PHASES]
    assert sorts, "the game should play sort3"
    for k in sorts:
        done = sum(e.get("ability") == "sort3" for e in trace[:decisions[k][3]]) - 1
        assert sum(": looks at" in t for t in text[:fr[k]["log"][1]]) == done


def test_overwrites_only_with_force_and_tags_ids_on_request(tmp_path):
    out, said = write_page(tmp_path)
    assert said.startswith(f"{out}: ") and "decisions;" in said
    again = CliRunner().invoke(app, ["replay", "--level", 1, "--seed", 2, "--format", "html",
                                     "--out", str(out)])
    assert again.exit_code == 2 and "exists" in again.output
    write_page(tmp_path, "--force", "--ids")
    assert re.search(r"#\d+", "".join(t for line in page_data(out)["lines"] for t, _ in line))


def test_a_scripted_game_that_stops_writes_no_page(tmp_path):
    (tmp_path / "moves.txt").write_text("end\n")
    result = CliRunner().invoke(app, ["replay", "--level", 1, "--seed", 1, "--actions",
                                      str(tmp_path / "moves.txt"), "--format", "html", "--out",
                                      str(tmp_path / "g.html")])
    assert result.exit_code == 2 and "chose 'end'" in result.output
    assert list(tmp_path.iterdir()) == [tmp_path / "moves.txt"]


# --- the page in a browser -----------------------------------------------------------------
def chrome(tmp_path, url: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([CHROME, "--headless", "--no-sandbox", "--disable-gpu",
                           f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", "--virtual-time-budget=500",
                           *args, url], capture_output=True, text=True, timeout=60)


def body_and_numbers(dom: str) -> tuple[dict, dict]:
    body = dict(re.findall(r'data-(\w+)="([^"]*)"', re.search(r"<body[^>]*>", dom).group(0)))
    numbers = {k: int(v) for k, v in re.findall(r'id="(turn|life|frame-no|frame-count)">'
                                                r'(-?\d+)<', dom)}
    return body, numbers


@needs_chrome
def test_the_page_loads_without_a_script_error(page, tmp_path):
    run = chrome(tmp_path, page.as_uri(), "--dump-dom")
    body, numbers = body_and_numbers(run.stdout)
    assert body.get("ok") == "1" and "error" not in body, run.stdout[:300]
    assert not [ln for ln in run.stderr.splitlines() if ":CONSOLE" in ln]
    assert numbers["frame-no"] == 1 and numbers["frame-count"] == len(page_data(page)["frames"])


@needs_chrome
def test_the_keys_step_forward_and_back_to_the_right_turn(page, record, tmp_path):
    """From decision k (1-based), right, right, left: decision k+1, whose turn differs from
    decision k+2's and whose turn and life are the engine's; End then Home: the first."""
    obs = record["observations"]
    k = next(i for i in range(1, len(obs) - 1) if obs[i][O.O_TURN] != obs[i + 1][O.O_TURN])
    run = chrome(tmp_path, page.as_uri() + f"#frame={k}&keys=ArrowRight,ArrowRight,ArrowLeft",
                 "--dump-dom")
    body, numbers = body_and_numbers(run.stdout)
    assert body["ok"] == "1" and body["frame"] == str(k + 1) and numbers["frame-no"] == k + 1
    assert (numbers["turn"], numbers["life"]) == (obs[k][O.O_TURN], obs[k][O.O_LIFE])
    run = chrome(tmp_path, page.as_uri() + "#frame=3&keys=End,ArrowLeft,End,Home,ArrowRight",
                 "--dump-dom")
    body, numbers = body_and_numbers(run.stdout)
    assert body["frame"] == "2" and (numbers["turn"], numbers["life"]) == \
        (obs[1][O.O_TURN], obs[1][O.O_LIFE])


@needs_chrome
def test_a_screenshot_is_not_blank(page, tmp_path):
    from matplotlib.image import imread
    shot = tmp_path / "shot.png"
    run = chrome(tmp_path, page.as_uri() + "#frame=20", f"--screenshot={shot}",
                 "--window-size=1280,900")
    assert shot.is_file(), run.stderr[-500:]
    pixels = imread(shot)[..., :3].reshape(-1, 3)
    colours, counts = np.unique((pixels * 255).round().astype(np.uint8), axis=0,
                                return_counts=True)
    assert len(colours) > 100 and counts.max() < 0.8 * len(pixels)


@needs_chrome
@pytest.mark.parametrize("hash_, shown", [("abc", "first"), ("1.5", "first"), ("-2", "first"),
                                          ("", "first"), ("0", "first"), ("99999", "last"),
                                          ("99999999999999999999", "last")])
def test_a_bad_frame_in_the_address_opens_a_frame_that_exists(page, tmp_path, hash_, shown):
    """#frame=abc or #frame=1.5 (a hand-edited or mangled link) once threw a script error and
    drew nothing: anything but a whole number opens the first decision, and a number past
    either end the nearest frame; the page is drawn without a script error."""
    count = len(page_data(page)["frames"])
    run = chrome(tmp_path, page.as_uri() + f"#frame={hash_}", "--dump-dom")
    body, numbers = body_and_numbers(run.stdout)
    want = 1 if shown == "first" else count
    assert body.get("ok") == "1" and "error" not in body, run.stdout[:300]
    assert body["frame"] == str(want) and numbers["frame-no"] == want
