"""Start the real app in a subprocess, offscreen, and let it quit once it is ready."""

import os
import subprocess
import sys

# The offscreen platform plugin cannot do these window-manager calls; they are not app warnings.
OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)


def run_app(*args, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path))
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # keep QSettings out of the real home
    return subprocess.run(
        [sys.executable, "-m", "tensorviz", "--quit-after-ready", "--report-startup", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_app_starts_paints_loads_torch_and_exits_cleanly(tmp_path):
    result = run_app(tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    events = [line.split()[0] for line in result.stdout.splitlines()]
    assert events == ["first-paint", "ready"]
    warnings = [line for line in result.stderr.splitlines() if line not in OFFSCREEN_NOISE]
    assert warnings == []


def test_missing_file_argument_gets_one_clear_line_not_a_traceback(tmp_path):
    result = run_app(str(tmp_path / "nope.pt"), tmp_path=tmp_path)
    assert result.returncode == 0
    messages = [line for line in result.stderr.splitlines() if line not in OFFSCREEN_NOISE]
    assert messages == [f"tensorviz: Cannot open {tmp_path / 'nope.pt'}: no such file."]


def test_building_the_window_imports_no_torch(tmp_path):
    """The first paint must not wait for torch (≈3 s): the window is built without it, even
    when the saved area is one whose panel needs torch."""
    settings = tmp_path / "settings.ini"
    settings.write_text("[window]\narea=training\n")
    probe = (
        "import sys\n"
        "from PySide6.QtCore import QSettings\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from tensorviz.ui.window.app_settings import AppSettings\n"
        "from tensorviz.ui.window.main_window import MainWindow\n"
        f"w = MainWindow(AppSettings(QSettings({str(settings)!r}, QSettings.Format.IniFormat)))\n"
        "print(w.current_area(), 'torch' in sys.modules)\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.stdout.split() == ["training", "False"], result.stderr
