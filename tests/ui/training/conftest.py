"""The Training panel on the CPU, ready, and afterwards shut down with its thread joined."""

import pytest
from panel_driving import TIMEOUT

from tensorviz.ui.training.training_panel import TrainingPanel


@pytest.fixture
def panel(qtbot):
    widget = TrainingPanel(["cpu"])
    qtbot.addWidget(widget)
    widget.resize(1100, 740)
    widget.show()
    qtbot.waitUntil(lambda: widget.state == "ready", timeout=TIMEOUT)
    yield widget
    assert widget.shutdown()
    assert not widget.thread.is_running()
