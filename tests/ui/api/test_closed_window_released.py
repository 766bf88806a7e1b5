"""A window the Python API opened is deleted once it is closed (in the GUI thread, by Qt), and
the API keeps no reference to it: a long session of show() calls does not pile up windows, and
no later garbage collection in another thread destroys a live window."""

import torch
from PySide6.QtCore import QTimer

import tensorviz
from tensorviz.api import viewer


def test_a_closed_window_is_destroyed_and_forgotten(api, qtbot):
    tensorviz.show(torch.zeros(3), block=False)
    window = viewer.current_window()
    qtbot.waitUntil(window.is_ready, timeout=60_000)
    destroyed = []  # (not waitSignal: it would disconnect from a signal whose object is gone)
    window.destroyed.connect(lambda *_: destroyed.append(True))
    window.close()
    qtbot.waitUntil(lambda: destroyed == [True], timeout=10_000)
    assert viewer.current_window() is None


def test_a_blocking_call_returns_with_its_window_already_destroyed(api, qtbot):
    destroyed = []
    closer = QTimer()

    def close_when_ready():
        window = viewer.current_window()
        if window is not None and window.is_ready():
            closer.stop()
            window.destroyed.connect(lambda *_: destroyed.append(True))
            window.close()

    closer.timeout.connect(close_when_ready)
    closer.start(20)
    tensorviz.show(torch.arange(3), block=True)
    # No event loop has run since the call returned: the window was deleted before it did.
    assert destroyed == [True]
    assert viewer.current_window() is None
