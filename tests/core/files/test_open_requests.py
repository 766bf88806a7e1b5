import os

import pytest

from tensorviz.core.files.open_requests import path_problem, split_openable


def test_readable_file_has_no_problem(tmp_path):
    f = tmp_path / "t.pt"
    f.write_bytes(b"x")
    assert path_problem(f) is None


@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda d: d / "missing.pt", "no such file"),
        (lambda d: d, "folder"),
        (lambda d: "", "empty"),
    ],
)
def test_unopenable_paths_are_explained(tmp_path, make, reason):
    problem = path_problem(make(tmp_path))
    assert problem is not None and reason in problem.reason
    assert problem.message().startswith("Cannot open ")


def test_unreadable_file_is_explained(tmp_path, monkeypatch):
    f = tmp_path / "secret.pt"
    f.write_bytes(b"x")
    f.chmod(0)
    # Tests run as root in CI, where chmod 0 does not stop reading; ask the OS check to say no.
    if os.access(f, os.R_OK):
        monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert "permission" in path_problem(f).reason


def test_split_keeps_order_drops_duplicates_and_resolves(tmp_path, monkeypatch):
    a, b = tmp_path / "a.pt", tmp_path / "b.pt"
    a.write_bytes(b"a")
    b.write_bytes(b"b")
    monkeypatch.chdir(tmp_path)
    good, problems = split_openable(["b.pt", str(a), "missing.pt", str(b)])
    assert good == [str(b.resolve()), str(a.resolve())]
    assert [p.path for p in problems] == ["missing.pt"]
