"""A meta tensor in the workspace (the device lesson, or a script's) is shown without values in
the Workbench and the Memory layout, never a traceback."""

import pytest
import torch

from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.memory.layout_panel import LayoutPanel
from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)
    ws.add_tensor("m", torch.ones(2, 3, 4, device="meta"), Provenance("ones", ""))
    return ws


def test_the_workbench_says_a_meta_tensor_has_no_values(qtbot, workspace):
    panel = WorkbenchPanel(workspace, ["cpu"])
    qtbot.addWidget(panel)
    panel.show()
    panel.select("m")
    assert "a meta tensor" in panel.values.summary_label.text()
    assert panel.values.model.rowCount() == 0
    assert panel.identity.value_labels["device"].text() == "meta"
    panel.grab()  # paints without reading a value
    panel.shutdown()


def test_the_memory_layout_draws_a_meta_tensor_without_values(qtbot, workspace):
    panel = LayoutPanel(workspace)
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_tensor("m")
    image = panel.grab()
    assert not image.isNull()
    panel.shutdown()
