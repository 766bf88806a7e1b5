"""The window the Python API opens on the caller's tensors (Qt is imported only here, and only
when a window is needed).

One window at a time: a call while it is open adds to it; a call after it was closed opens a new
window on the same workspace, so what the first call showed (and what the user did with it) is
still there. A closed window is deleted (by Qt, in the GUI thread) and forgotten here: left to
the garbage collector, a window that is still alive would be destroyed in whatever thread runs
the collection. In a plain script the call blocks until the window closes (Ctrl+C closes it too);
in IPython or Jupyter with a Qt event loop (`%gui qt`, switched on here if it is not) it
returns at once and the window stays live, as napari's viewer does.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from dataclasses import dataclass, field

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, Qt, QTimer

from tensorviz.api.offscreen import QUIT_AFTER_READY
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.core.translation import _
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.application import create_application
from tensorviz.ui.window.language import LanguageSwitcher
from tensorviz.ui.window.main_window import MainWindow

CTRL_C_POLL_MS = 200  # how often Python gets to run its Ctrl+C handler inside Qt's loop


@dataclass(frozen=True)
class Recording:
    """What `tensorviz.architecture(model, x)` asked the Architecture area to record."""

    name: str  # the model's workspace label ("model")
    model: object  # the caller's nn.Module (or function)
    inputs: tuple  # the caller's inputs, passed positionally
    text: str  # "model(x)", as the caller wrote it


@dataclass
class Focus:
    """What the window turns to once it is ready."""

    names: list[str]
    headline: str
    notes: list[str] = field(default_factory=list)
    graph: str | None = None  # open this tensor's autograd graph
    recording: Recording | None = None  # record this forward in the Architecture area
    error: object = None  # ExplainedError of the exception the program stopped on


_window: list[MainWindow] = []  # the open window, if any


def current_window() -> MainWindow | None:
    return _window[0] if _window else None


def speak_the_windows_language() -> str:
    """Switch to the language the window will speak (View → Language as remembered, else the
    system's), so what the API prints and what the window shows agree."""
    create_application()
    window = current_window()
    if window is not None:
        return window.language.language
    return LanguageSwitcher.shared().apply(AppSettings().language())


def present(workspace: Workspace, focus: Focus, block: bool) -> MainWindow:
    """Show the window on `workspace` turned to `focus`; with `block`, return once it closed."""
    create_application()
    window = current_window()
    if window is None:
        window = MainWindow(AppSettings(), workspace=workspace)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # deleteLater() once closed
        window.closed.connect(_window.clear)  # our only reference to it
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
    """What happened said (the notice bar, the status line: an area's own message may follow),
    then the shown tensors selected, the graph opened or the forward recorded."""
    if window.context is None:  # torch failed to load: the notice bar says why already
        return
    window.notice_bar.show_messages([focus.headline, *focus.notes])
    window.statusBar().showMessage(focus.notes[-1] if focus.notes else focus.headline, 15_000)
    if focus.error is not None:
        _error_panel(window).show_error(focus.error)
    if focus.recording is not None:
        record_architecture(window, focus.recording)
    elif focus.graph is not None:
        window.panel("graph").show_tensor(focus.graph)
        window.show_area("graph")
    elif focus.names:
        window.panel("workbench").select(focus.names[-1])
        window.show_area("workbench")


def record_architecture(window: MainWindow, recording: Recording) -> None:
    """The Architecture area records `model(*inputs)` (in its worker) and shows it, as the
    Script area's "Architecture of model(x)" does; a later call for the same name replaces it."""
    from tensorviz.core.forward.presets import ForwardSubject

    def subject():
        return ForwardSubject(recording.model, recording.inputs, recording.text)

    key = f"code:{recording.name}"
    panel = window.panel("architecture")
    panel.add_subject(key, _("your code: {call}").format(call=recording.text), subject)
    panel.show_subject(key)
    window.show_area("architecture")


def _error_panel(window: MainWindow) -> ErrorPanel:
    """The exception explained above every area, until dismissed."""
    for panel in window.findChildren(ErrorPanel):
        if panel.property("programError"):
            return panel
    panel = ErrorPanel(
        footer=lambda: _("Your program stopped here; close the window to let it end.")
    )
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
        _delete_closed(window)
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
    _delete_closed(window)
    if interrupted:
        raise KeyboardInterrupt


def _delete_closed(window: MainWindow) -> None:
    """The closed window's deleteLater() carried out now, unless the loop that closed it already
    did: the caller's script runs no event loop that would, so the window would live on, alive,
    until some garbage collection."""
    if shiboken6.isValid(window):
        QCoreApplication.sendPostedEvents(window, QEvent.Type.DeferredDelete)


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
