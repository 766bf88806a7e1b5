"""What `tensorviz` says instead of starting a GUI it cannot start: a word that is neither a
subcommand nor a file, and no display (where Qt itself would abort the process)."""

import os
import signal
import socket
import subprocess
import sys

from tensorviz import cli
from tensorviz.ui.window.application import display_problem, x_display_reachable


def run_tensorviz(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "tensorviz", *args],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip


def headless_env(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    return dict(env, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))


def test_an_unknown_word_is_no_file_but_a_missing_subcommand(tmp_path):
    result = run_tensorviz(
        "frobnicate", "a.pt", "b.pt", env=dict(os.environ, QT_QPA_PLATFORM="offscreen")
    )
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("tensorviz: error: no such file or subcommand: frobnicate.")
    for name in cli.SUBCOMMANDS:  # the list comes from the registry, whatever it holds
        assert name in line


def test_a_misspelt_subcommand_gets_a_suggestion():
    problem = cli.unknown_word_problem(["inspekt", "model.pt"])
    assert "no such file or subcommand: inspekt" in problem
    assert "Did you mean `tensorviz inspect`?" in problem


def test_paths_and_existing_files_are_not_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "weights").write_bytes(b"")
    assert cli.unknown_word_problem(["weights"]) is None  # an existing file without extension
    assert cli.unknown_word_problem(["missing.pt"]) is None  # the Files area explains that one
    assert cli.unknown_word_problem(["runs/model"]) is None
    assert cli.unknown_word_problem([]) is None


def test_qt_itself_aborts_without_a_display(tmp_path):
    """The hazard the check exists for, measured: QApplication without a display is SIGABRT."""
    probe = "from PySide6.QtWidgets import QApplication\nQApplication([])\n"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
        env=headless_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == -signal.SIGABRT


def test_tensorviz_without_a_display_says_so_in_one_line(tmp_path):
    result = run_tensorviz(str(tmp_path / "some.pt"), env=headless_env(tmp_path))
    assert result.returncode == 2  # not -SIGABRT
    (line,) = result.stderr.splitlines()
    assert line.startswith("tensorviz: error: no display to open the window on (DISPLAY is not")
    assert "xvfb-run" in line and "inspect" in line


def test_display_rules():
    linux = "linux"
    assert display_problem({}, linux) == "DISPLAY is not set"
    assert display_problem({}, "darwin") is None and display_problem({}, "win32") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, linux) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, linux) is None
    assert display_problem({"QT_QPA_PLATFORM": "xcb"}, linux) == "DISPLAY is not set"


def test_an_x_display_answers_only_when_a_server_listens():
    number = 90 + os.getpid() % 9
    assert not x_display_reachable(f":{number}", timeout_s=0.2)
    assert display_problem({"DISPLAY": f":{number}"}, "linux") == (
        f"the X display ':{number}' does not answer"
    )
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(f"\0/tmp/.X11-unix/X{number}")  # an abstract socket, as X servers open
    server.listen(1)
    try:
        assert x_display_reachable(f":{number}.0", timeout_s=0.2)
        assert display_problem({"DISPLAY": f":{number}"}, "linux") is None
    finally:
        server.close()
    assert x_display_reachable("weird-display")  # a form it does not know: Qt's to judge
