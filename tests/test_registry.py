"""The policy registry (policies): it builds only the player it is asked for, so that naming
``expert`` loads no engine module and a weights file that no longer fits breaks ``learned``
alone, with one line, while ``friday train``, which remakes the weights, still runs.  Each
check runs in a fresh process (what a module import costs or breaks is per process)."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHORT = textwrap.dedent("""
    import sys
    from pathlib import Path
    import policies.learned as learned
    learned.WEIGHTS = Path(sys.argv[1])          # the shipped weights, one row short
""")


def _python(code: str, *args, cwd=ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def short_weights(tmp_path) -> Path:
    data = json.loads((ROOT / "policies" / "learned.json").read_text())
    data["W1"] = data["W1"][:-1]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data))
    return path


def test_naming_a_builtin_loads_no_engine_module():
    r = _python("import sys\nfrom policies import load_policy\nload_policy('expert')\n"
                "print(sorted(m for m in sys.modules if m.startswith(('sim.fast', "
                "'sim.reference', 'policies.'))))")
    assert r.returncode == 0, r.stderr
    loaded = eval(r.stdout.strip())
    assert not [m for m in loaded if m.startswith(("sim.fast", "sim.reference"))]
    assert "policies.learned" not in loaded and "policies.search" not in loaded


def test_a_short_weights_file_breaks_learned_alone_with_one_line(short_weights):
    r = _python(SHORT + textwrap.dedent("""
        from policies import load_policy
        from sim.errors import UsageError
        print(load_policy("expert").name, load_policy("search[base=veteran]").name)
        try:
            load_policy("learned")
        except UsageError as exc:
            print("error:", exc)
    """), str(short_weights))
    assert r.returncode == 0, r.stderr
    expert, error = r.stdout.splitlines()
    assert expert == "expert search[base=veteran]"
    assert error.startswith("error: the built-in policy 'learned' cannot be built: the weights")
    assert "do not fit policy learned" in error and "friday train" in error


def test_a_command_naming_learned_then_says_so_in_one_error_line(short_weights, tmp_path):
    cli = SHORT + "from sim.cli import main\nsys.argv = ['friday', *sys.argv[2:]]\nmain()"
    r = _python(cli, str(short_weights), "simulate", "--policy", "learned", "--games", "1",
                cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()]
    assert r.stderr.startswith("error: the built-in policy 'learned' cannot be built")


def test_other_weights_never_read_the_shipped_ones(short_weights):
    r = _python(SHORT + "from policies import load_policy\n"
                "print(load_policy(f'learned[weights={sys.argv[2]}]').name)",
                str(short_weights), str(ROOT / "policies" / "learned.json"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("learned[weights=")


def test_friday_train_starts_with_a_short_weights_file(short_weights, tmp_path):
    """``friday train`` (its help, and a tiny plan: 1 round, the veteran playing) runs."""
    cli = SHORT + "from sim.cli import main\nsys.argv = ['friday', *sys.argv[2:]]\nmain()"
    r = _python(cli, str(short_weights), "train", "--help")
    assert r.returncode == 0 and "--rounds" in r.stdout, r.stderr
    r = _python(cli, str(short_weights), "train", "--out", "w.json", "--data", "d",
                "--rounds", "1", "--workers", "1", "--level", "4", "--games", "2",
                "--rollouts", "2", "--hidden", "4", "--seed", "5", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "w.json").is_file()


def test_the_registry_lists_every_builtin_by_name():
    from policies import BUILTIN, SEARCH, builtin_policies
    from policies.players import PLAYERS
    assert BUILTIN == ("random_legal", "always_fight", "cull_green", "expert", "veteran",
                       "learned")
    assert SEARCH == ("search", "unfair_clairvoyant", "unfair_solver")
    assert list(builtin_policies()) == list(PLAYERS)
    assert list(builtin_policies(search=True))[-3:] == ["search", "unfair-clairvoyant",
                                                        "unfair-solver"]


def test_each_load_is_a_new_player():
    """A Policy keeps its game's stream: two loads never share one."""
    from policies import load_policy
    assert load_policy("expert") is not load_policy("expert")
