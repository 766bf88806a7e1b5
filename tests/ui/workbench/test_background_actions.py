"""Heavy Workbench actions compute off the GUI thread, can be discarded, and then land as quick
ones do."""

import threading

import pytest
import torch
from PySide6.QtCore import QCoreApplication

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.tensors import workbench_actions
from tensorviz.core.tensors.workbench_actions import ActionError, ActionOutcome, PreparedAction
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.workbench.action_forms import select_data
from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel


@pytest.fixture
def panel(qtbot):
    workspace = Workspace()
    workbench_actions.populate_default_workspace(workspace)
    widget = WorkbenchPanel(workspace, ["cpu"])
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def everything_is_heavy(monkeypatch):
    monkeypatch.setattr(workbench_actions, "HEAVY_BYTES", -1)
    monkeypatch.setattr(workbench_actions, "HEAVY_MULTIPLY_ADDS", -1)


def test_a_heavy_operation_lands_like_a_quick_one(qtbot, panel, everything_is_heavy):
    form = panel.operate_form
    select_data(form.kind, "clone")
    form.set_input("x_t")
    form.button.click()
    assert panel.background.is_busy() and not form.button.isEnabled()
    qtbot.waitUntil(lambda: "x_t_clone" in panel.workspace, timeout=10_000)
    result = panel.workspace.tensor("x_t_clone")
    assert torch.equal(result, panel.workspace.tensor("x_t"))
    assert result.untyped_storage().data_ptr() != panel.workspace.tensor("x").data_ptr()
    assert panel.selected == "x_t_clone" and "copy" in panel.identity.verdict.text()
    assert not panel.background.is_busy() and form.button.isEnabled()


def test_a_heavy_creation_lands_with_its_name(qtbot, panel, everything_is_heavy):
    form = panel.create_form
    select_data(form.kind, "zeros")
    form.params.set_values({"shape": "3, 5"})
    form.result_name.setText("z")
    form.button.click()
    qtbot.waitUntil(lambda: "z" in panel.workspace, timeout=10_000)
    assert torch.equal(panel.workspace.tensor("z"), torch.zeros(3, 5))
    assert panel.selected == "z"


def _blocking_action(release: threading.Event, finished: list) -> PreparedAction:
    def compute():
        release.wait(10)
        return "result"

    def finish(result) -> ActionOutcome:
        finished.append(result)
        return ActionOutcome("y = slow()")

    return PreparedAction("slow()", True, compute, finish)


def test_discard_frees_the_workbench_at_once_and_drops_the_result(qtbot, panel):
    release, finished = threading.Event(), []
    panel.background.start(_blocking_action(release, finished))
    assert not panel.create_form.button.isEnabled()
    names_before = panel.workspace.names()
    panel.operate_form.button.click()  # refused while computing: the workspace stays as it is
    assert panel.workspace.names() == names_before
    panel.background.discard()
    assert not panel.background.is_busy() and panel.create_form.button.isEnabled()
    release.set()
    panel.background.shutdown()  # joins the worker
    QCoreApplication.processEvents()  # deliver the result the worker queued: it is dropped
    assert finished == []


def test_a_failure_in_the_background_is_explained(qtbot, panel):
    explained = ExplainedError("shape", "Shapes do not match", "torch said no", "why", "fix")

    def compute():
        raise ActionError(explained)

    panel.background.start(PreparedAction("bad()", True, compute, lambda r: None))
    qtbot.waitUntil(lambda: not panel.background.is_busy(), timeout=10_000)
    assert panel.error_panel.explained is explained and panel.error_panel.isVisible()
