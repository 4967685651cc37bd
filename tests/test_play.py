"""friday play: a whole game driven by standard input; wrong entries, hints, quitting."""
from typer.testing import CliRunner

from policies import load_policy
from sim.actions import action_id, action_name
from sim import observation as O
from sim.cli import app
from sim.play.terminal import menu_order
from sim.reference import Game

from helpers import interrupt_cli

runner = CliRunner()
LEVEL, SEED, GAME = 2, 7, 3


class Recorder:
    """The expert, writing down the legal actions and its answer at every decision."""

    def __init__(self):
        self.policy = load_policy("expert")
        self.name = "expert"
        self.moves = []

    def reset(self, seed, game):
        self.policy.reset(seed, game)

    def choose(self, obs, legal, n_legal):
        """The legal actions as the menu numbers them (menu_order), and the answer."""
        action = self.policy.choose(obs, legal, n_legal)
        menu = menu_order(int(obs[O.O_PHASE]), [int(a) for a in legal[:n_legal]],
                          self.game.trace)
        self.moves.append((menu, action))
        return action


def expert_game():
    rec = Recorder()
    rec.game = Game(LEVEL, SEED, GAME, rec)
    return rec.game.play(), rec.moves


def play(stdin: str, *extra):
    return runner.invoke(app, ["play", "--level", LEVEL, "--seed", SEED, "--game", GAME, *extra],
                         input=stdin)


def test_a_whole_game_on_stdin_ends_with_the_score_and_the_policies():
    """The expert's moves typed in, as numbers and names alternately, replay its game."""
    expert, moves = expert_game()
    typed = [str(legal.index(a) + 1) if i % 2 else action_name(a) for i, (legal, a) in enumerate(moves)]
    result = play("\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert f"Score {expert.score} (R10.3):" in out and "pirates beaten" in out
    assert "built-in policies" in out
    for name in ("random", "always-fight", "cull-green", "expert"):
        assert f"  {name:<14s}score" in out
    you = next(line for line in out.splitlines() if line.startswith("  you "))
    ref = next(line for line in out.splitlines() if line.startswith("  expert "))
    assert you.split()[1:] == ref.split()[1:]          # same deal, same moves, same game
    assert "Traceback" not in out


def test_wrong_entries_are_explained_and_asked_again_and_hint_answers():
    _, moves = expert_game()
    legal, first = moves[0]
    result = play(f"nonsense\n0\n{len(legal) + 1}\nend\n?\n{action_name(first)}\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'nonsense' is not an action here" in out
    assert "0 is not a choice" in out and f"{len(legal) + 1} is not a choice" in out
    assert "end is not legal now" in out
    assert f"expert would choose {legal.index(first) + 1} {action_name(first)}" in out
    assert "Game left at turn 1 (you left the game), after 1 moves" in out
    assert f"friday play --level {LEVEL} --seed {SEED} --game {GAME}" in out


def test_end_of_input_leaves_cleanly():
    result = play("")
    assert result.exit_code == 0 and "end of the input" in result.output
    assert "Traceback" not in result.output


def test_the_state_shows_only_what_a_player_may_know():
    """R1.4: pile contents (by value), never the hidden order of the stacks."""
    result = play("q\n")
    assert "Robinson's stack (19):" in result.output and "Hazards:" in result.output
    assert "robinson_stack" not in result.output and "[" not in result.output.split("Your choice")[0]


def test_bad_arguments_are_one_error_line():
    for args, message in ((["--level", "5"], "unknown level 5"),
                          (["--level", "1", "--seed", "-3"], "greater than or equal to 0"),
                          (["--level", "1", "--game", "-1"], "greater than or equal to 0"),
                          (["--level", "1", "--hint", "nope"], "unknown policy 'nope'"),
                          (["--level", "1", "--option", "old_age=maybe"], "old_age")):
        result = runner.invoke(app, ["play", *args], input="q\n")
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output


def test_ctrl_c_during_play_exits_130_without_a_traceback():
    """A real process, interrupted while it waits for the player (its prompt shown)."""
    run = interrupt_cli("play", "--level", "1", "--seed", "1", cues=["Your choice"])
    out, err = run.stdout, run.stderr
    assert run.returncode == 130, (out, err)
    assert "Interrupted (Ctrl-C)" in out and "Traceback" not in err


def test_ids_tag_the_cards_only_when_asked():
    plain, tagged = play("q\n"), play("q\n", "--ids")
    assert "#" not in plain.output.split("Your choice")[0]
    assert " #" in tagged.output.split("Your choice")[0]


def test_the_menu_lists_the_hazards_in_the_order_of_the_hazards_line():
    """Level 1, seed 3 draws Exploring the island, then With the raft to the wreck (card ids
    44 and 36): the menu numbers them in that order, as the log's Hazards: line names them,
    and 1 fights the first one named."""
    result = runner.invoke(app, ["play", "--level", "1", "--seed", "3"], input="1\nq\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    hazards = next(line for line in lines if line.strip().startswith("Hazards:"))
    assert hazards.strip().startswith("Hazards: Exploring the island (value 1, 2 free cards) "
                                      "and With the raft to the wreck"), hazards
    menu = [line.split() for line in lines if line.strip().startswith(("1  fight", "2  fight"))]
    assert [m[:2] for m in menu[:2]] == [["1", "fight:44"], ["2", "fight:36"]], menu
    assert " ".join(menu[0][2:]).startswith("fight Exploring the island")
    assert "Fight against Exploring the island" in result.output


def test_menu_order_elsewhere_is_the_engines():
    assert menu_order(O.PH_FIGHT, [0, 1, 2], []) == [0, 1, 2]


def test_hint_shows_every_actions_chance_and_coach_the_chance_each_move_lost(tmp_path):
    """? names every legal action's chance of winning (fair continuations, as friday review
    scores them: the same numbers); --coach adds after each move with a choice what it lost."""
    from sim.lab.coach import Coach
    from sim.lab.review import play_through, review
    _, moves = expert_game()
    typed = "".join(f"?\n{action_name(a)}\n" for _, a in moves[:4]) + "q\n"
    result = play(typed, "--coach", "--rollouts", "40", "--save", str(tmp_path / "g.txt"))
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    lines = [ln for ln in out.splitlines() if "chance of winning after each" in ln]
    assert len(lines) == 4 and "(40 continuations by learned)" in lines[0]
    first_legal, first = moves[0]
    assert all(f"{i + 1} {action_name(a)} " in lines[0] for i, a in enumerate(first_legal))
    coached = [ln for ln in out.splitlines() if ln.strip().startswith("coach: ")]
    assert len(coached) == sum(len(legal) > 1 for legal, _ in moves[:4])
    saved = (tmp_path / "g.txt").read_text().splitlines()
    assert saved[1] == (f"# friday review --level {LEVEL} --seed {SEED} --game {GAME} --actions "
                        f"{tmp_path / 'g.txt'}")
    assert [s for s in saved if not s.startswith("#")] == [action_name(a) for _, a in moves[:4]]
    played = play_through(LEVEL, SEED, GAME, actions=[action_name(a) for _, a in moves[:4]])
    rows = review(played, rollouts=40)
    first_rows = rows[rows.decision == 0].sort_values("chance", ascending=False)
    shown = ", ".join(f"{first_legal.index(action_id(r.action)) + 1} {r.action} {r.chance:.0%}"
                      for r in first_rows.itertuples())
    assert lines[0].endswith(shown)
    coach = Coach(LEVEL, SEED, GAME, None, 40)
    assert coach.chances_line(first_legal, str).split("): ")[1].count("%") == len(first_legal)


def test_a_saved_game_replays_as_played(tmp_path):
    expert, moves = expert_game()
    typed = "".join(f"{action_name(a)}\n" for _, a in moves)
    result = play(typed, "--save", str(tmp_path / "g.txt"))
    assert result.exit_code == 0 and f"wrote {tmp_path / 'g.txt'}" in result.output
    again = runner.invoke(app, ["replay", "--level", LEVEL, "--seed", SEED, "--game", GAME,
                                "--actions", str(tmp_path / "g.txt")])
    assert again.exit_code == 0 and f"Score {expert.score} (R10.3):" in again.output
    refused = play("q\n", "--save", str(tmp_path / "g.txt"))
    assert refused.exit_code == 2 and "exists" in refused.output and "Your choice" not in \
        refused.output
