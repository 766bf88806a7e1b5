"""The Script area with qtbot: run with Ctrl+Enter, output and errors, Stop that really stops,
captured tensors reaching the other areas, examples, and the text kept across restarts."""

import sys
import time

import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.script.examples import example_by_key, script_examples
from tensorviz.core.script.output import output_is_routed
from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.script_panel import ScriptPanel

TIMEOUT = 20_000


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)
    return ws


@pytest.fixture
def panel(qtbot, workspace, app_settings):
    stdout, stderr = sys.stdout, sys.stderr
    widget = ScriptPanel(workspace, app_settings)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()
    assert widget.thread is None and not widget.is_running()
    assert sys.stdout is stdout and sys.stderr is stderr and not output_is_routed()


def run(qtbot, panel, source, key_press=False):
    panel.editor.setPlainText(source)
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT) as finished:
        if key_press:
            qtbot.keyClick(panel.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        else:
            panel.run_button.click()
    return finished.args[0]


def test_ctrl_enter_runs_and_the_captured_list_fills(qtbot, panel, workspace):
    source = "w = torch.ones(3, requires_grad=True)\nloss = (w * x.flatten()[:3]).sum()\n"
    source += "print('loss is', loss.item())\n"
    assert run(qtbot, panel, source, key_press=True) == "finished"
    assert panel.captured.names() == ["w", "loss"]
    assert "loss is 3.0" in panel.output.text()
    assert (
        panel.status.text().startswith("Finished in") and "2 tensors added" in panel.status.text()
    )
    assert workspace.tensor("loss").grad_fn is not None
    panel.captured.select("w")
    assert not panel.captured.graph_button.isEnabled()  # a leaf: no grad_fn, no graph
    panel.captured.select("loss")
    assert panel.captured.graph_button.isEnabled()
    with qtbot.waitSignal(panel.graph_requested) as requested:
        panel.captured.graph_button.click()
    assert requested.args == ["loss"]


def test_run_and_stop_buttons_follow_the_state(qtbot, panel):
    assert panel.run_button.isEnabled() and not panel.stop_button.isEnabled()
    panel.editor.setPlainText("while True:\n    pass\n")
    panel.run_button.click()
    assert not panel.run_button.isEnabled() and panel.stop_button.isEnabled()
    qtbot.waitUntil(lambda: "— line 1" in panel.status.text(), timeout=TIMEOUT)
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT) as finished:
        qtbot.keyClick(panel.editor, Qt.Key.Key_Escape)
    assert finished.args == ["stopped"]
    assert panel.run_button.isEnabled() and not panel.stop_button.isEnabled()
    assert panel.status.text().startswith("Stopped at line")


@pytest.mark.parametrize(
    "source",
    [
        "while True:\n    pass\n",
        "a = torch.randn(64, 64)\nwhile True:\n    a = torch.tanh(a @ a)\n",
    ],
    ids=["python-loop", "torch-loop"],
)
def test_stop_ends_the_thread_within_a_second(qtbot, panel, workspace, source):
    before = {e.name: e.tensor.clone() for e in workspace}
    panel.editor.setPlainText(source + "x.add_(1)\n")
    panel.run_button.click()
    qtbot.waitUntil(lambda: panel.script_run.progress()[0] > 0, timeout=TIMEOUT)
    thread = panel.thread
    requested = time.monotonic()
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT):
        panel.stop_button.click()
    qtbot.waitUntil(thread.isFinished, timeout=TIMEOUT)
    assert time.monotonic() - requested < 1.0  # behaviour: the thread really ended promptly
    assert panel.last_result.status == "stopped" and "Stopped at line" in panel.output.text()
    for name, values in before.items():
        assert torch.equal(workspace.tensor(name), values)


def test_torch_error_is_explained_and_its_line_highlighted(qtbot, panel, workspace):
    names = workspace.names()
    source = "y = torch.ones(2, 3)\nz = y @ torch.ones(4, 5)\n"
    assert run(qtbot, panel, source) == "failed"
    with pytest.raises(RuntimeError) as error:
        torch.ones(2, 3) @ torch.ones(4, 5)
    assert panel.editor.failing_line == 2
    assert panel.error_box.isVisible() and panel.error_box.explanation.isVisible()
    assert panel.error_box.explanation.explained.torch_message == str(error.value)
    assert 'File "<script>", line 2' in panel.output.text()
    assert workspace.names() == [*names, "y"]  # captured before the error, beside the rest
    panel.editor.go_to_line(1)
    panel.error_box.go_button.click()
    assert panel.editor.textCursor().blockNumber() == 1


def test_syntax_error_runs_nothing(qtbot, panel, workspace):
    assert run(qtbot, panel, "a = torch.ones(2)\nif True\n    b = 1\n") == "syntax_error"
    assert panel.editor.failing_line == 2 and "a" not in workspace
    assert "nothing ran" in panel.status.text()


def test_output_keeps_order_and_stderr_colour(qtbot, panel):
    source = "import sys\nprint('first')\nsys.stderr.write('second\\n')\nprint('third')\n"
    run(qtbot, panel, source)
    text = panel.output.text()
    assert text.index("first") < text.index("second") < text.index("third")


def test_undo_takes_back_the_whole_run(qtbot, panel, workspace):
    names = workspace.names()
    run(qtbot, panel, "a = torch.ones(2)\nb = a.view(1, 2)\nx.mul_(2)\n")
    assert {"a", "b"} <= set(workspace.names())
    panel.undo()
    assert workspace.names() == names and panel.captured.names() == []
    assert torch.equal(workspace.tensor("x"), torch.arange(24).reshape(2, 3, 4))


def test_examples_load_with_undo_in_the_editor(qtbot, panel):
    panel.editor.setPlainText("my own code\n")
    panel.examples_menu.actions()[0].trigger()
    assert panel.text() == example_by_key("01_creating_tensors").source
    panel.editor.undo()
    assert panel.text() == "my own code\n"


def test_text_persists_across_a_new_panel(qtbot, workspace, app_settings):
    first = ScriptPanel(workspace, app_settings)
    qtbot.addWidget(first)
    first.editor.setPlainText("kept = torch.ones(1)\n")
    qtbot.waitUntil(lambda: app_settings.script_text() == "kept = torch.ones(1)\n", timeout=5000)
    first.editor.setPlainText("saved on close\n")
    first.shutdown()
    second = ScriptPanel(workspace, app_settings)
    qtbot.addWidget(second)
    assert second.text() == "saved on close\n"
    second.shutdown()


def test_endless_print_does_not_freeze_or_eat_memory(qtbot, panel):
    panel.editor.setPlainText("i = 0\nwhile True:\n    print(i)\n    i += 1\n")
    panel.run_button.click()
    qtbot.waitUntil(lambda: panel.output.document().blockCount() > 2000, timeout=TIMEOUT)
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT):
        panel.stop()
    assert panel.output.document().blockCount() <= 20_000


def test_app_flow_graph_button_opens_the_autograd_graph(qtbot, window):
    panel = window.panel("script")
    window.show_area("script")
    panel.editor.setPlainText("w = torch.ones(2, requires_grad=True)\nloss = (w * 3).sum()\n")
    with qtbot.waitSignal(panel.run_finished, timeout=TIMEOUT):
        qtbot.keyClick(panel.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    panel.captured.select("loss")
    panel.captured.graph_button.click()
    assert window.current_area() == "graph"
    assert window.panel("graph").source == ("tensor", "loss")
    window.show_area("script")
    panel.captured.select("w")
    panel.captured.layout_button.click()
    assert window.current_area() == "layout"
    window.show_area("script")
    panel.captured.workbench_button.click()
    workbench = window.panel("workbench")
    assert window.current_area() == "workbench" and workbench.selected == "w"
    assert workbench.identity.origin.text() == "from <b>script</b>, line 1"
    window.undo()  # Edit → Undo in the Workbench takes the whole run back
    assert "loss" not in window.context.workspace


def test_file_menu_offers_the_examples(qtbot, window):
    window._rebuild_examples_menu()  # what aboutToShow does
    actions = window.examples_menu.actions()
    last = script_examples()[-1]
    assert [a.text() for a in actions][-1] == last.title
    assert all(a.isEnabled() for a in actions)
    actions[-1].trigger()
    assert window.current_area() == "script"
    assert window.panel("script").text() == last.source


def test_a_stop_that_waits_for_torch_says_what_it_waits_for():
    from tensorviz.ui.script.script_panel import stop_wait_text

    source = "a = torch.randn(9000, 9000)\nb = a @ a\n"
    assert "waiting for line 2 (`b = a @ a`) to return" in stop_wait_text(source, 2, None)
    assert "waiting for torch.matmul on line 2" in stop_wait_text(source, 2, "torch.matmul")
    assert "cannot be interrupted" in stop_wait_text(source, 0, None)


def test_undo_of_a_run_also_takes_back_what_the_next_run_sees(qtbot, panel, workspace):
    run(qtbot, panel, "ts = [torch.full((2,), float(i)) for i in range(3)]\n")
    run(qtbot, panel, "ts = [torch.full((2,), 10.0 + i) for i in range(3)]\n")
    panel.undo()
    assert torch.equal(workspace.tensor("ts_0"), torch.zeros(2))
    assert run(qtbot, panel, "print(ts[0])\n") == "finished"  # sees the first run's list
    assert torch.equal(workspace.tensor("ts_0"), torch.zeros(2))
    assert "tensor([0., 0.])" in panel.output.toPlainText()


def test_carriage_returns_rewrite_the_line_as_a_terminal_does(qtbot, panel):
    source = "for i in range(5):\n    print(f'\\repoch {i}', end='')\nprint()\nprint('done')\n"
    assert run(qtbot, panel, source) == "finished"
    lines = panel.output.toPlainText().splitlines()
    assert "epoch 4" in lines and not any(f"epoch {i}" in lines for i in range(4))
    assert "done" in lines


def test_the_captured_columns_fit_their_contents_and_grad_takes_what_is_left(qtbot, panel):
    """At the default window size (1280 px wide, the area list beside the panel) every column but
    .grad shows all of its contents; .grad, the last, takes the rest and its tooltip has it all."""
    from tensorviz.ui.script.captured_list import COLUMNS, GRAD_COLUMN

    panel.resize(1110, 760)
    assert run(qtbot, panel, example_by_key("06_autograd").source) == "finished"
    tree = panel.captured.tree
    header = tree.header()
    assert GRAD_COLUMN == len(COLUMNS) - 1
    for column in range(len(COLUMNS) - 1):
        assert header.sectionSize(column) >= tree.sizeHintForColumn(column), COLUMNS[column]
        right = header.sectionViewportPosition(column) + header.sectionSize(column)
        assert right <= tree.viewport().width(), f"{COLUMNS[column]} runs off the list"
    item = tree.topLevelItem(panel.captured.names().index("w"))
    from tensorviz.core.tensors.identity import grad_text

    assert (
        item.toolTip(GRAD_COLUMN)
        == item.text(GRAD_COLUMN)
        == grad_text(panel.workspace.tensor("w"))
    )
