"""The paused step of a watched run, opened in a tensorviz window in the user's own process, as
`tensorviz.breakpoint()` opens one: the step's batch, outputs, loss, parameters and gradients in
the Workbench (the loop's very tensors), and the loss's autograd graph with the backward pass
the loop ran through it in the Autograd area, ready for Step ▶ (F10).

The user's loop is held in the gate while the window is open, so the window runs Qt's event loop
there, looking at the control channel every poll (StepGate.poll): Continue, Step or Run to from
the viewer close the window and let the loop go on; closing the window leaves the loop paused;
Ctrl+C in the terminal closes it and raises KeyboardInterrupt, which stops the script. Without a
display (or offscreen) one line says so and the pause goes on.
"""

from __future__ import annotations

import os
import signal
import sys
import sysconfig
import threading

from tensorviz.api.caller_names import CallSite
from tensorviz.api.calls import api_workspace, speak_the_terminals_language, window_problem
from tensorviz.core.translation import _

# Frames in these folders are not the user's loop: tensorviz, the standard library, and the
# installed packages (torch, Lightning, transformers).
_PACKAGE_FOLDERS = tuple(
    os.path.abspath(folder) + os.sep
    for folder in {
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
    }
)


def inspect_paused_step(gate) -> list[str] | None:
    """The gate's inspector: show `gate.paused` and run the window until the pause ends or the
    window is closed. Returns the workspace names shown; None when no window could open."""
    paused = gate.paused
    if paused is None:
        return None
    speak_the_terminals_language()
    problem = window_problem(_("the paused step {step}").format(step=paused.step))
    if problem:
        print(
            "tensorviz: "
            + _("{problem} Step {step} stays paused.").format(problem=problem, step=paused.step),
            file=sys.stderr,
            flush=True,
        )
        return None
    window, names = open_paused_step(paused)
    wait_while_paused(window, gate)
    return names


def open_paused_step(paused):
    """Put the paused step into the API's workspace and show the window turned to it (not
    blocking): (window, names)."""
    from tensorviz.api import viewer
    from tensorviz.api.collected import collect

    workspace = api_workspace(create=True)
    site = _user_site()
    collected = collect(workspace, paused.workspace_values(), site, "watch", complain=False)
    viewer.speak_the_windows_language()
    headline = _(
        "step {step} of your training, paused at {where}: its batch, outputs, loss, parameters "
        "and gradients in the Workbench, your own objects, not copies"
    ).format(step=paused.step, where=site.where())
    notes = []
    if paused.backward is not None:
        notes.append(
            _(
                "the loss's autograd graph is in the Autograd area with the backward pass your "
                "loop ran: Step ▶ (F10) walks it node by node"
            )
        )
    else:
        notes.append(_("no backward pass was recorded for this step (the loop paused before one)"))
    notes.append(_("Continue (F8) or Step (F10) in the run's viewer lets the loop go on"))
    print(f"tensorviz: {headline}", file=sys.stderr, flush=True)
    focus = viewer.Focus(collected.names[:1], headline, notes)  # the loss selected
    window = viewer.present(workspace, focus, block=False)

    def show_the_pass() -> None:
        if paused.backward is None or window.context is None:
            return
        panel = window.panel("graph")
        panel.show_script_passes([paused.backward], 1)
        panel.show_script_pass(0)
        window.show_area("graph")

    from PySide6.QtCore import Qt

    if window.is_ready():
        show_the_pass()
    else:
        window.ready.connect(show_the_pass, Qt.ConnectionType.SingleShotConnection)
    return window, list(collected.names)


def wait_while_paused(window, gate) -> None:
    """Qt's loop until the window closes or the gate lets the loop go (the window then closes).
    Ctrl+C closes it and raises KeyboardInterrupt."""
    import shiboken6
    from PySide6.QtCore import QEventLoop, QTimer

    from tensorviz.api.viewer import _delete_closed

    loop = QEventLoop()
    window.closed.connect(loop.quit)
    interrupted: list[bool] = []

    def look() -> None:
        if not gate.poll():
            loop.quit()

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(max(1, int(gate.poll_seconds * 1000)))

    def on_ctrl_c(*_args) -> None:
        interrupted.append(True)
        loop.quit()

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_ctrl_c) if main else None
    try:
        loop.exec()
    finally:
        timer.stop()
        if main:
            signal.signal(signal.SIGINT, previous)
        if shiboken6.isValid(window) and window.isVisible():
            window.close()
        if shiboken6.isValid(window):
            _delete_closed(window)
    if interrupted:
        raise KeyboardInterrupt


def _user_site() -> CallSite:
    """Where the user's loop is: the innermost frame outside tensorviz, torch and the standard
    library (their optimizer.step() line)."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(_PACKAGE_FOLDERS):
            return CallSite(frame.f_code.co_filename, frame.f_lineno or 0, frame.f_code.co_name)
        frame = frame.f_back
    return CallSite("<training>", 0, "")
