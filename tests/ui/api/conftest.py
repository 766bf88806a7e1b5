import gc

import pytest
from PySide6.QtCore import QSettings

from tensorviz.api import calls, offscreen, viewer
from tensorviz.ui.window.app_settings import AppSettings


@pytest.fixture
def api(tmp_path, monkeypatch, qtbot):
    """The Python API on a fresh workspace, its window's settings in a temporary file; every
    window it opened is closed (and its threads joined) afterwards."""
    settings = str(tmp_path / "settings.ini")
    monkeypatch.setattr(
        viewer, "AppSettings", lambda: AppSettings(QSettings(settings, QSettings.Format.IniFormat))
    )
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(offscreen, "OFFSCREEN_WINDOWS_WANTED", True)  # these tests look at it
    calls.forget_workspace()
    yield calls
    window = viewer.current_window()
    if window is not None:
        window.close()
        assert not window.loader.isRunning()
    calls.forget_workspace()
    # The closed window is garbage now, held in reference cycles (widgets and the Python
    # objects that name them): collect it here, in the GUI thread. Left to a later automatic
    # collection, the next test's torch loader thread may run it, and Qt objects destroyed off
    # their thread start timers there ("Timers cannot be started from another thread").
    gc.collect()
