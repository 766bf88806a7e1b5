"""The Script area says what a run cut (output beyond the kept megabyte) and titles Python's own
failures (recursion, KeyboardInterrupt, input()) as such, not as torch refusals."""

import sys

import pytest

from tensorviz.core.explain.errors import UNKNOWN_TITLE
from tensorviz.core.script.output import MAX_KEPT_CHARS, output_is_routed
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.script_panel import ScriptPanel

TIMEOUT = 30_000


@pytest.fixture
def panel(qtbot, app_settings):
    stdout, stderr = sys.stdout, sys.stderr
    widget = ScriptPanel(Workspace(), app_settings)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()
    assert sys.stdout is stdout and sys.stderr is stderr and not output_is_routed()


def run(qtbot, panel, source: str) -> str:
    panel.editor.setPlainText(source)
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT) as finished:
        panel.run_button.click()
    return finished.args[0]


def test_output_beyond_the_kept_megabyte_is_said_with_its_size(qtbot, panel):
    printed = 3_000_000 + 1  # one print: the whole text, then its newline
    assert run(qtbot, panel, "print('x' * 3_000_000)\n") == "finished"
    dropped = panel.script_run.output.total_dropped
    assert dropped >= printed - MAX_KEPT_CHARS
    text = panel.output.text()
    assert "characters of output dropped here" in text
    assert f"{dropped:,} characters of this run's output were dropped" in text


def test_a_run_that_dropped_nothing_says_nothing(qtbot, panel):
    assert run(qtbot, panel, "print('short')\n") == "finished"
    assert "dropped" not in panel.output.text()


@pytest.mark.parametrize(
    ("source", "title_start", "line"),
    [
        ("def f():\n    return f()\n\nf()\n", "RecursionError", 2),
        ("x = 1\nraise KeyboardInterrupt\n", "KeyboardInterrupt", 2),
        ("n = input('n? ')\n", "input()", 1),
    ],
)
def test_python_failures_are_titled_as_such(qtbot, panel, source, title_start, line):
    assert run(qtbot, panel, source) == "failed"
    box = panel.error_box
    assert box.isVisible() and box.line == line
    shown = box.explanation.title.text()
    assert shown.startswith(title_start) and shown != UNKNOWN_TITLE
    assert "torch" not in shown and box.explanation.isVisible()
    if title_start == "RecursionError":
        assert "[Previous line repeated" in panel.output.text()
        assert len(panel.output.text()) < 3_000
