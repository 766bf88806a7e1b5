"""A meta tensor in the workspace (the device lesson, or a script's) is shown without values in
the Workbench, never a traceback (the Memory layout's test is in tests/ui/memory)."""

import pytest
import torch

from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Provenance, Workspace


@pytest.fixture
def workspace():
    ws = Workspace()
    populate_default_workspace(ws)
    ws.add_tensor("m", torch.ones(2, 3, 4, device="meta"), Provenance("ones", ""))
    return ws


def test_the_workbench_says_a_meta_tensor_has_no_values(open_panel, workspace):
    panel = open_panel(workspace)
    panel.select("m")
    assert "a meta tensor" in panel.values.summary_label.text()
    assert panel.values.model.rowCount() == 0
    assert panel.identity.value_labels["device"].text() == "meta"
    panel.grab()  # paints without reading a value
