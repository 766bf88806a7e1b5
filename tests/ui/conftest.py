import pytest
from PySide6.QtCore import QSettings

from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.main_window import MainWindow


@pytest.fixture
def settings_file(tmp_path):
    return str(tmp_path / "settings.ini")


@pytest.fixture
def app_settings(settings_file):
    return AppSettings(QSettings(settings_file, QSettings.Format.IniFormat))


@pytest.fixture
def window(qtbot, app_settings):
    """A shown main window whose torch loader has finished (joined before teardown)."""
    main_window = MainWindow(app_settings)
    qtbot.addWidget(main_window)
    with qtbot.waitSignal(main_window.ready, timeout=60_000):
        main_window.show()
    yield main_window
    main_window.close()
    assert not main_window.loader.isRunning()
