"""`make screenshots`: render each area of the real main window to docs/screenshots/*.png.

Uses the app's own widgets, offscreen, with settings in a temporary folder so a developer's own
window geometry and recent files never leak into the pictures.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from tensorviz.resource_files import resource_path
from tensorviz.ui.app_settings import AppSettings
from tensorviz.ui.areas import AREAS
from tensorviz.ui.main_window import MainWindow
from tensorviz.ui.workbench.action_forms import select_data

WINDOW_SIZE = (1280, 800)


def _wait_until_ready(window: MainWindow, timeout_ms: int = 60_000) -> None:
    if window.is_ready():
        return
    loop = QEventLoop()
    window.ready.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()


def _stage_view_error(workbench) -> None:
    """The classic: x.transpose(0, 1).view(-1) — torch refuses, the app explains."""
    form = workbench.operate_form
    select_data(form.kind, "view")
    form.set_input("x_t")
    form.params.set_values({"shape": "-1"})
    form.submit()


def take_screenshots(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    app.setStyleSheet(resource_path("themes", "light.qss").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        settings = AppSettings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.IniFormat))
        window = MainWindow(settings)
        window.resize(*WINDOW_SIZE)
        window.show()
        _wait_until_ready(window)
        written = []
        for area in AREAS:
            window.show_area(area.key)
            app.processEvents()
            path = out_dir / f"{area.key}.png"
            window.grab().save(str(path))
            written.append(path)
        path = out_dir / "workbench_error.png"
        _stage_view_error(window.panels["workbench"])
        window.show_area("workbench")
        app.processEvents()
        window.grab().save(str(path))
        written.append(path)
        about = window.show_about()
        app.processEvents()
        about.adjustSize()
        path = out_dir / "about.png"
        about.grab().save(str(path))
        written.append(path)
        about.close()
        window.close()
    return written


def main() -> int:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    for path in take_screenshots(out_dir):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
