"""The backward graph of a real model: grouped by the modules its forward tagged (ModuleList
blocks too), searched by dotted names, followed while stepping, marked on the overview."""

import sys

import pytest
import torch

from tensorviz.core.autograd.presets import BuiltGraph
from tensorviz.core.forward.module_tags import tagging_modules
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.autograd.graph_panel import GraphPanel

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parents[2]))
from model_shapes import GPT2LMHeadModel  # noqa: E402


@pytest.fixture
def panel(qtbot):
    widget = GraphPanel(Workspace())
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    torch.manual_seed(0)
    model = GPT2LMHeadModel(layers=4)
    with tagging_modules():
        loss = model(torch.randint(0, 100, (1, 6))).logits.sum()
    names = {n: p for n, p in model.named_parameters()}
    widget._show(BuiltGraph(loss, "loss", names), "gpt2 loss")
    qtbot.waitUntil(lambda: widget.layout_result is not None, timeout=60_000)
    yield widget
    widget.shutdown()


def test_grouping_by_module_levels_makes_the_blocks_groups(panel):
    assert panel.group_modules.isEnabled() and panel.group_level.maximum() >= 2
    panel.group_level.setValue(2)
    panel.group_modules.setChecked(True)
    labels = {d["label"] for _, d in panel.shown.nodes(data=True) if d["kind"] == "module"}
    assert {f"transformer.h.{i} · GPT2Block" for i in range(4)} <= labels


def test_search_finds_dotted_module_names(panel):
    panel.search.setText("h.2.attn")
    assert panel.matches
    for node in panel.matches:
        chain = panel.graph.graph.nodes[node]["module"]
        assert any("h.2.attn" in path for path, _ in chain)


def test_stepping_keeps_the_current_node_in_view_and_marks_the_overview(panel):
    panel.run_backward()
    view = panel.view
    for _ in range(120):
        panel.step_forward()
    current = panel.stepper.current().node
    area = view.mapToScene(view.viewport().rect()).boundingRect()
    assert area.contains(view.node_position(current))
    assert (view.overview.marks > 0).sum() >= 120  # visited boxes marked for the overview
