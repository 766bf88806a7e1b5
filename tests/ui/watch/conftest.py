"""A Runs panel, shown, and afterwards shut down with its reader threads joined; run folders
recorded from a real torch loop (core/watch/example_run.py)."""

import pytest

from tensorviz.core.watch.example_run import deep_sigmoid_mlp, record_training
from tensorviz.ui.watch.runs_panel import RunsPanel

TIMEOUT = 20_000


@pytest.fixture
def panel(qtbot):
    widget = RunsPanel()
    qtbot.addWidget(widget)
    widget.resize(1060, 720)
    widget.show()
    yield widget
    assert widget.shutdown()
    assert not widget.follower.is_following() and not widget.compare_follower.is_following()


@pytest.fixture
def recorded(tmp_path):
    """(folder, torch's gradient norms per parameter) of a 30-step deep sigmoid MLP run."""
    folder = tmp_path / "2026-12-02-010000"
    norms = record_training(folder, deep_sigmoid_mlp(depth=5, width=8), steps=30)
    return folder, norms


def follow(panel, qtbot, folder, rows):
    assert panel.open_run(folder)
    qtbot.waitUntil(
        lambda: panel.current_rank() is not None and panel.current_rank().rows == rows,
        timeout=TIMEOUT,
    )
    panel.redraw()
