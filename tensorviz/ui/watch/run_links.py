"""How the window hands run folders to the Runs area: a run folder (or its run.json) on the
command line, dropped on the window, or chosen with File → Open Folder… / Open Run Folder…
opens there, not in the Files area; one asked for while torch loads opens once it is built."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.run_reader import is_run_folder
from tensorviz.ui.watch.step_control_bar import StepControlBar


def take_run_folders(paths: list[str]) -> tuple[list[str], list[str]]:
    """(the run folders among `paths`, the other paths), each in the order given."""
    runs, others = [], []
    for path in paths:
        candidate = Path(path).expanduser()
        if candidate.name == rf.RUN_FILE and candidate.is_file():
            candidate = candidate.parent
        if candidate.is_dir() and is_run_folder(candidate):
            runs.append(str(candidate))
        else:
            others.append(path)
    return runs, others


def open_run_folder(window, folder: str) -> bool:
    """Follow `folder` in the Runs area (built now if torch has loaded, else once it is)."""
    window.queued_run = folder
    window.show_area("runs")
    panel = window.built_panel("runs")
    if panel is None:
        waiting = QCoreApplication.translate(
            "RunLinks", "The run opens in the Runs area once PyTorch has loaded"
        )
        window.statusBar().showMessage(waiting, 8000)
        return True
    if window.queued_run is None:  # the panel was built just now and opened it (link_runs_panel)
        return panel.folder is not None
    window.queued_run = None
    return panel.open_run(folder)


def open_run_dialog(window) -> None:
    """File → Open Run Folder…"""
    panel = window.built_panel("runs")
    start = str(panel.folder.parent) if panel is not None and panel.folder else str(Path.cwd())
    title = QCoreApplication.translate("RunLinks", "Open a run folder")
    folder = QFileDialog.getExistingDirectory(window, title, start)
    if folder:
        open_run_folder(window, folder)


def link_runs_panel(panel, window) -> None:
    """Connect the Runs panel once it is built, then open the run asked for before.

    Every folder the panel follows (`run_opened`) gets its own step control bar (Pause / Step /
    Continue / Run to / Inspect) at the end of the toolbar; the bar reads its own light state,
    since the panel's reader lives on a worker thread."""

    def give_step_controls(folder: str) -> None:
        bar = StepControlBar(folder)
        panel.set_step_controls(bar)  # the previous bar is shut down and deleted
        bar.install_shortcuts_on(panel)

    panel.run_opened.connect(give_step_controls)
    queued = getattr(window, "queued_run", None)
    if queued:
        window.queued_run = None
        panel.open_run(queued)
