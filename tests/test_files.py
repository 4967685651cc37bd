"""sim.lab.files, the one writer: outputs checked before the work, written atomically with the
mode any other program's files get, a failed write one UsageError and nothing left behind."""
import os

import pytest

from sim.lab.files import check_file, check_folder, write_atomic, write_text
from sim.errors import UsageError


def test_a_written_file_has_the_usual_mode(tmp_path):
    umask = os.umask(0)
    os.umask(umask)
    write_text(tmp_path / "a" / "b.md", "x\n")             # missing folders are made
    assert (tmp_path / "a" / "b.md").read_text() == "x\n"
    assert (tmp_path / "a" / "b.md").stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_failed_write_is_one_usage_error_and_leaves_nothing(tmp_path):
    def fail(tmp):
        tmp.write_text("half")
        raise OSError(28, "No space left on device")
    with pytest.raises(UsageError, match="cannot write .*No space left on device"):
        write_atomic(tmp_path / "out.csv", fail)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, force, message", [
    ("folder", False, "is a folder"),
    ("x.txt", False, "must end in .png"),
    ("old.png", False, "exists: choose another file or pass force=True"),
    ("a_file/x.png", True, "cannot write into"),
])
def test_check_file_refuses_before_any_work(tmp_path, name, force, message):
    (tmp_path / "folder").mkdir()
    (tmp_path / "old.png").write_bytes(b"keep")
    (tmp_path / "a_file").write_text("x")
    with pytest.raises(UsageError, match=message):
        check_file(tmp_path / name, (".png",), force)
    assert (tmp_path / "old.png").read_bytes() == b"keep"


def test_check_folder(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(UsageError, match="is a file"):
        check_folder(tmp_path / "f", ("a.md",), False)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.md").write_text("x")
    with pytest.raises(UsageError, match="already has a.md"):
        check_folder(tmp_path / "d", ("a.md",), False)
    check_folder(tmp_path / "d", ("a.md",), True)
    check_folder(tmp_path / "new" / "deeper", ("a.md",), False)       # made when written
