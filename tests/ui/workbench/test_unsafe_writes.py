"""The Workbench computes a big index mask on its worker, never while the action is prepared on
the GUI thread, and asks before a write that can be neither checked nor undone."""

import threading

import pytest
import torch
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from tensorviz.core.tensors import memory_budget
from tensorviz.core.tensors import workspace as workspace_module
from tensorviz.core.tensors.index_expressions import ParsedIndex
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.workbench.action_forms import select_data
from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel


def panel_with(qtbot, **tensors) -> WorkbenchPanel:
    workspace = Workspace()
    for name, tensor in tensors.items():
        workspace.add_tensor(name, tensor, Provenance("test", name))
    widget = WorkbenchPanel(workspace, ["cpu"])
    qtbot.addWidget(widget)
    widget.show()
    return widget


def apply(panel: WorkbenchPanel, op: str, input_name: str, params: dict) -> None:
    form = panel.operate_form
    select_data(form.kind, op)
    form.set_input(input_name)
    form.params.set_values(params)
    form.button.click()


def test_a_big_mask_is_computed_on_the_worker(qtbot, monkeypatch):
    n = 2100  # each tensor the mask makes is above the 16 MB that go off the GUI thread
    panel = panel_with(qtbot, a=torch.randn(n, 1), b=torch.randn(1, n), x=torch.randn(n, n))
    computed_on = []
    real_key = ParsedIndex.key

    def recording_key(self):
        computed_on.append(threading.current_thread())
        return real_key(self)

    monkeypatch.setattr(ParsedIndex, "key", recording_key)
    try:
        apply(panel, "index", "x", {"index": "x[(a + b) * (a - b) > 0]"})
        assert panel.background.is_busy()
        qtbot.waitUntil(lambda: "x_index" in panel.workspace, timeout=60_000)
        a, b, x = (panel.workspace.tensor(k) for k in "abx")
        assert torch.equal(panel.workspace.tensor("x_index"), x[(a + b) * (a - b) > 0])
        assert computed_on and threading.main_thread() not in computed_on
    finally:
        panel.shutdown()


@pytest.fixture
def unsafe(monkeypatch):
    """No snapshot fits, and checking the indices does not fit the memory budget either."""
    monkeypatch.setattr(workspace_module, "UNDO_MAX_BYTES", 16)
    monkeypatch.setattr(memory_budget, "available_memory_bytes", lambda: 2000)


def test_an_uncheckable_unundoable_write_asks_and_a_no_writes_nothing(qtbot, unsafe):
    panel = panel_with(qtbot, t=torch.zeros(4, 1000))
    asked = []
    panel.ask_to_write = lambda code, question: asked.append((code, question)) or False
    try:
        with qtbot.waitSignal(panel.status_message) as said:
            apply(panel, "index_assign", "t", {"index": "[0, 1, 2, 3]", "value": "7"})
        assert len(asked) == 1 and asked[0][0] == "t[[0, 1, 2, 3]] = 7"
        assert "cannot be checked beforehand" in asked[0][1]
        assert said.args[0].startswith("Nothing was written")
        assert torch.equal(panel.workspace.tensor("t"), torch.zeros(4, 1000))
        panel.ask_to_write = lambda code, question: True
        apply(panel, "index_assign", "t", {"index": "[0, 1, 2, 3]", "value": "7"})
        assert torch.equal(panel.workspace.tensor("t"), torch.full((4, 1000), 7.0))
    finally:
        panel.shutdown()


def test_the_question_is_a_warning_whose_default_is_no(qtbot):
    panel = panel_with(qtbot, t=torch.zeros(3))
    seen = {}

    def answer_the_box() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer_the_box)
            return
        seen["text"], seen["icon"] = box.text(), box.icon()
        seen["default"] = box.defaultButton() is box.button(QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.No).click()

    QTimer.singleShot(0, answer_the_box)
    try:
        assert panel.ask_to_write("t[[0]] = 1", "Write anyway?") is False
        assert seen["text"].startswith("t[[0]] = 1") and seen["default"]
        assert seen["icon"] == QMessageBox.Icon.Warning
    finally:
        panel.shutdown()
