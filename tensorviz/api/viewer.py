"""The window the Python API opens on the caller's tensors (Qt is imported only here, and only
when a window is needed).

One window at a time: a call while it is open adds to it; a call after it was closed opens a new
window on the same workspace, so what the first call showed (and what the user did with it) is
still there. In a plain script the call blocks until the window closes (Ctrl+C closes it too);
in IPython or Jupyter with a Qt event loop (`%gui qt`, switched on here if it is not) it
returns at once and the window stays live, as napari's viewer does.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from dataclasses import dataclass, field

from PySide6.QtCore import QEventLoop, Qt, QTimer

from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.application import create_application
from tensorviz.ui.window.main_window import MainWindow

QUIT_AFTER_READY = "TENSORVIZ_QUIT_AFTER_READY"  # smoke tests: close once the window is ready
ARCHITECTURE_AREA = "architecture"  # the forward view's area: its panel draws a module
CTRL_C_POLL_MS = 200  # how often Python gets to run its Ctrl+C handler inside Qt's loop


@dataclass
class Focus:
    """What the window turns to once it is ready."""

    names: list[str]
    headline: str
    notes: list[str] = field(default_factory=list)
    graph: str | None = None  # open this tensor's autograd graph
    modules: dict = field(default_factory=dict)  # name → nn.Module, for the architecture view
    error: object = None  # ExplainedError of the exception the program stopped on


_window: list[MainWindow] = []  # the open window, if any


def current_window() -> MainWindow | None:
    return _window[0] if _window else None


def present(workspace: Workspace, focus: Focus, block: bool) -> MainWindow:
    """Show the window on `workspace` turned to `focus`; with `block`, return once it closed."""
    create_application()
    window = current_window()
    if window is None:
        window = MainWindow(AppSettings(), workspace=workspace)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.closed.connect(lambda: _window.clear())
        _window[:] = [window]
        if os.environ.get(QUIT_AFTER_READY):
            window.ready.connect(window.close, Qt.ConnectionType.QueuedConnection)
    if window.is_ready():
        turn_to(window, focus)
    else:
        window.ready.connect(lambda: turn_to(window, focus), Qt.ConnectionType.SingleShotConnection)
    window.show()
    window.raise_()
    window.activateWindow()
    if block:
        wait_until_closed(window)
    return window


def turn_to(window: MainWindow, focus: Focus) -> None:
    """The shown tensors selected (or the graph opened), the module drawn, what happened said."""
    if window.context is None:  # torch failed to load: the notice bar says why already
        return
    window.notice_bar.show_messages([focus.headline, *focus.notes])
    if focus.error is not None:
        _error_panel(window).show_error(focus.error)
    if focus.graph is not None:
        window.panel("graph").show_tensor(focus.graph)
        window.show_area("graph")
    elif focus.names:
        window.panel("workbench").select(focus.names[-1])
        window.show_area("workbench")
    for name, module in focus.modules.items():
        open_in_architecture(window, name, module)


def open_in_architecture(window: MainWindow, name: str, module) -> bool:
    """The hook for the architecture (forward) view: a panel that has `show_module(name, module)`
    draws the module; until that area exists, its parameters are in the Workbench only."""
    if ARCHITECTURE_AREA not in window.panels:
        return False
    panel = window.panel(ARCHITECTURE_AREA)
    if not hasattr(panel, "show_module"):
        return False
    panel.show_module(name, module)
    return True


def _error_panel(window: MainWindow) -> ErrorPanel:
    """The exception explained above every area, until dismissed."""
    for panel in window.findChildren(ErrorPanel):
        if panel.property("programError"):
            return panel
    panel = ErrorPanel(footer="Your program stopped here; close the window to let it end.")
    panel.setProperty("programError", True)  # (its object name keeps the error panel's style)
    window.centralWidget().layout().insertWidget(1, panel)
    return panel


def wait_until_closed(window: MainWindow) -> None:
    """Run Qt's loop until the window closes. Ctrl+C in the terminal closes it and raises
    KeyboardInterrupt here, as it would have interrupted the program."""
    loop = QEventLoop()
    window.closed.connect(loop.quit)
    interrupted = []
    if threading.current_thread() is not threading.main_thread():
        loop.exec()
        return

    def on_ctrl_c(*_args) -> None:
        interrupted.append(True)
        window.close()

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    wake = QTimer()  # Python runs signal handlers only between its own bytecodes
    wake.timeout.connect(lambda: None)
    wake.start(CTRL_C_POLL_MS)
    try:
        loop.exec()
    finally:
        wake.stop()
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt


def notebook_has_qt_loop() -> bool:
    """True in IPython/Jupyter once a Qt event loop is integrated (`%gui qt`), which this turns
    on when the shell has no GUI loop yet, as napari does; False outside IPython."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    loop = getattr(shell, "active_eventloop", None)
    if loop:
        return str(loop).startswith("qt")
    os.environ.setdefault("QT_API", "pyside6")
    create_application()  # (IPython's Qt hook then uses this application)
    try:
        shell.enable_gui("qt")
    except Exception:  # noqa: BLE001 — no Qt support in this shell: block instead
        return False
    return True
