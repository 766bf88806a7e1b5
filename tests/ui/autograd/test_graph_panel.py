"""The Autograd graph area: items per node and edge, clicks, search, stepping, the workspace."""

import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.autograd.presets import PRESETS
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.autograd.graph_items import EdgeItem, NodeItem
from tensorviz.ui.autograd.graph_panel import GraphPanel


@pytest.fixture
def workspace():
    return Workspace()


@pytest.fixture
def panel(qtbot, workspace):
    widget = GraphPanel(workspace)
    qtbot.addWidget(widget)
    widget.resize(800, 560)
    widget.show()
    yield widget
    widget.shutdown()


def node_of_op(panel, op):
    return next(n for n, d in panel.graph.graph.nodes(data=True) if d["op"] == op)


def test_one_item_per_node_and_edge(panel):
    graph = panel.graph.graph
    nodes = [i for i in panel.view.scene().items() if isinstance(i, NodeItem)]
    edges = [i for i in panel.view.scene().items() if isinstance(i, EdgeItem)]
    assert {i.node for i in nodes} == set(graph.nodes) and len(nodes) == len(graph)
    assert len(edges) == graph.number_of_edges()


def test_clicking_a_node_shows_what_it_saved(panel, qtbot):
    node = node_of_op(panel, "PowBackward0")
    (item,) = panel.view.items_of(node)
    point = panel.view.mapFromScene(item.scenePos())
    with qtbot.waitSignal(panel.view.node_clicked) as clicked:
        qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert clicked.args == [node]
    text = panel.details.toPlainText()
    assert "PowBackward0" in text and "exponent: 2" in text and "self: tensor []" in text
    assert item.selected_node


def test_stepping_backward_fills_in_x_grad_seven(panel):
    panel.run_backward()
    x_node = next(n for n in panel.graph.nodes_of_kind("accumulate_grad"))
    (x_item,) = panel.view.items_of(x_node)
    assert x_item.detail == "scalar" and not panel.bar.back_button.isEnabled()
    order = []
    while panel.bar.step_button.isEnabled():
        panel.step_forward()
        order.append(panel.stepper.current().op)
    assert order[-1] == "AccumulateGrad" and order[0] == "AddBackward0"
    assert x_item.detail == f"grad = {panel.graph.functions[x_node].variable.grad.item():g}"
    assert x_item.detail == "grad = 7" and "4/4" in panel.bar.step_label.text()
    panel.step_back()
    assert x_item.detail == "scalar" and panel.stepper.current().op == "PowBackward0"
    edge = panel.view.edge_items[(x_node, node_of_op(panel, "PowBackward0"))]
    assert edge.gradient == "∂ 4"


def test_three_passes_accumulate_to_twelve_and_zero_grad_resets(panel):
    panel.show_preset("accumulate")
    panel.retain_graph.setChecked(True)
    x_node = panel.graph.nodes_of_kind("accumulate_grad")[0]
    leaf = panel.graph.functions[x_node].variable
    for _ in range(3):
        panel.run_backward()
        panel.run_to_end()
    assert leaf.grad.item() == 12.0
    assert panel.view.items_of(x_node)[0].detail == "grad = 12"
    panel.zero_grad()
    assert leaf.grad.item() == 0.0 and panel.view.items_of(x_node)[0].detail == "grad = 0"


def test_backward_twice_without_retain_graph_is_explained(panel, workspace):
    x = torch.tensor(2.0, requires_grad=True)
    workspace.add_tensor("x", x, Provenance("tensor", "torch.tensor(2.0)"))
    workspace.add_tensor("y", x**2, Provenance("pow", "x ** 2", ("x",)))
    panel.show_tensor("y")  # a workspace tensor: no forward to run again
    panel.run_backward()
    with_messages = []
    panel.status_message.connect(with_messages.append)
    assert panel.run_backward() is None and not panel.bar.backward_button.isEnabled()
    assert "retain_graph" in with_messages[-1]
    assert "retain_graph" in panel.bar.backward_button.toolTip()


def test_search_marks_matches_and_return_focuses_them(panel, qtbot):
    panel.show_preset("mlp")
    qtbot.keyClicks(panel.search, "weight")
    assert sorted(panel.graph.graph.nodes[n]["label"] for n in panel.matches) == [
        "0.weight",
        "2.weight",
    ]
    qtbot.keyClick(panel.search, Qt.Key.Key_Return)
    assert panel.selected == panel.matches[0]
    assert all(i.match for n in panel.matches for i in panel.view.items_of(n))


def test_workspace_tensors_with_a_grad_fn_are_offered_and_refreshed(panel, workspace):
    x = torch.ones(3, requires_grad=True)
    workspace.add_tensor("x", x, Provenance("ones", "torch.ones(3, requires_grad=True)"))
    workspace.add_tensor("y", (x * 2).sum(), Provenance("mul", "(x * 2).sum()"))
    assert panel.picker.findData("tensor:y") >= 0 and panel.picker.findData("tensor:x") < 0
    panel.show_tensor("y")
    assert "x" in {d["label"] for _, d in panel.graph.graph.nodes(data=True)}
    workspace.rename("y", "total")
    assert panel.source == ("tensor", "total")
    workspace.delete("total")
    assert panel.source == ("preset", "square") and panel.picker.findData("tensor:total") < 0


def test_every_preset_renders_at_every_zoom(panel):
    for key in PRESETS:
        panel.show_preset(key)
        for factor in (1.0, 0.2, 3.0):
            panel.view.zoom_by(factor)
            assert not panel.view.grab().isNull()
        panel.view.fit()
        assert panel.view.scale_factor() <= 1.4


def long_chain(length: int):
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.0
    return x, y.sum()


def test_a_big_graph_is_laid_out_off_the_gui_thread(panel, workspace, qtbot):
    x, total = long_chain(600)
    workspace.add_tensor("x", x, Provenance("ones", "torch.ones(2, requires_grad=True)"))
    workspace.add_tensor("total", total, Provenance("mul", "chain"))
    with qtbot.waitSignal(panel.graph_shown, timeout=20_000):
        panel.show_tensor("total")
        assert panel.layout_result is None and not panel.bar.backward_button.isEnabled()
    assert len(panel.layout_result.nodes) == 603 and panel.bar.backward_button.isEnabled()
    panel.run_backward()
    panel.run_to_end()
    assert x.grad.tolist() == [1.0, 1.0]


def test_a_big_graph_builds_items_only_for_what_is_in_view(panel, workspace, qtbot):
    x, total = long_chain(600)
    workspace.add_tensor("x", x, Provenance("ones", "torch.ones(2, requires_grad=True)"))
    workspace.add_tensor("total", total, Provenance("mul", "chain"))
    with qtbot.waitSignal(panel.graph_shown, timeout=20_000):
        panel.show_tensor("total")
    assert panel.view.node_items == {}  # fitted, far zoomed out: the overview paints it all
    panel.run_backward()
    panel.run_to_end()
    panel.search.setText("x")  # the leaf, at the top of the chain
    leaf = next(n for n in panel.graph.nodes_of_kind("accumulate_grad"))
    assert panel.matches == [leaf]
    panel.focus_next_match()
    built = len(panel.view.node_items)
    assert 0 < built < 603
    (item,) = panel.view.items_of(leaf)  # built late, it shows the state the panel holds
    assert item.match and item.selected_node and item.detail.startswith("grad = ")
    panel.view.fit()
    point = panel.view.mapFromScene(panel.view.node_position(leaf))
    with qtbot.waitSignal(panel.view.node_clicked) as clicked:
        panel.view.click_at(point)  # a click on the overview still finds the node
    assert clicked.args == [leaf]


def test_exporting_a_big_graph(panel, workspace, qtbot, tmp_path):
    x, total = long_chain(600)
    workspace.add_tensor("total", total, Provenance("mul", "chain"))
    with qtbot.waitSignal(panel.graph_shown, timeout=20_000):
        panel.show_tensor("total")
    assert panel.export_to(str(tmp_path / "big.png"))  # small scale: the overview paints it
    assert (tmp_path / "big.png").read_bytes().startswith(b"\x89PNG")
    assert len(panel.view.node_items) < 603
    assert panel.export_to(str(tmp_path / "big.svg"))  # full size: every item is built
    assert len(panel.view.node_items) == 603
    assert b"MulBackward0" in (tmp_path / "big.svg").read_bytes()


def test_a_stale_big_layout_is_dropped(panel, workspace, qtbot):
    x, total = long_chain(600)
    workspace.add_tensor("total", total, Provenance("mul", "chain"))
    panel.show_tensor("total")
    panel.show_preset("square")  # the user moved on before the layout came back
    panel.worker.stop()
    qtbot.waitUntil(lambda: panel.worker.pool.activeThreadCount() == 0)
    assert len(panel.view.node_items) == panel.graph.graph.number_of_nodes() == 5


@pytest.mark.parametrize("suffix", [".png", ".svg", ".dot"])
def test_export_writes_each_format(panel, tmp_path, suffix):
    panel.run_backward()
    panel.run_to_end()
    path = tmp_path / f"graph{suffix}"
    assert panel.export_to(str(path))
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    elif suffix == ".svg":
        assert b"<svg" in data and b"PowBackward0" in data
    else:
        text = data.decode()
        assert (
            text.startswith("digraph") and text.count("->") == panel.graph.graph.number_of_edges()
        )
    assert not panel.export_to(str(tmp_path / "graph.jpeg"))


def test_non_scalar_root_needs_a_gradient_and_ones_gives_torchs_answer(panel, workspace):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    workspace.add_tensor("x", x, Provenance("tensor", "torch.tensor([1., 2., 3.])"))
    workspace.add_tensor("y", x**2, Provenance("pow", "x ** 2"))
    panel.show_tensor("y")
    messages = []
    panel.status_message.connect(messages.append)
    panel.run_backward()
    assert "gradient" in messages[-1] and x.grad is None
    panel.bar.ones_gradient.setChecked(True)
    panel.run_backward()
    panel.run_to_end()
    twin = x.detach().clone().requires_grad_()
    (expected,) = torch.autograd.grad(twin**2, twin, torch.ones(3))
    assert torch.equal(x.grad, expected)


def test_step_keys_are_f10_and_shift_f10(panel):
    assert panel.bar.step_button.shortcut().toString() == "F10"
    assert panel.bar.back_button.shortcut().toString() == "Shift+F10"


def test_grouping_by_module_collapses_and_still_steps(panel):
    panel.show_preset("mlp")
    assert panel.group_modules.isEnabled()
    panel.group_modules.setChecked(True)
    labels = {d["label"] for _, d in panel.shown.nodes(data=True)}
    assert {"0 · Linear", "1 · ReLU", "2 · Linear"} <= labels
    assert set(panel.view.node_items) == set(panel.shown.nodes)
    panel.select_node("module:0")
    assert "AddmmBackward0" in panel.details.toPlainText()
    panel.run_backward()
    panel.run_to_end()
    assert panel.view.items_of("module:0")[0].visited
    panel.search.setText("0.weight")
    assert panel.matches == ["module:0"]
    panel.group_modules.setChecked(False)
    assert set(panel.view.node_items) == set(panel.graph.graph.nodes)
    panel.show_preset("square")
    assert not panel.group_modules.isEnabled()


def test_root_grad_is_none_unless_retain_grad(panel):
    panel.run_backward()
    panel.select_node(panel.graph.roots[0])
    assert "retain_grad()" in panel.details.toPlainText()
    panel.show_preset("square")
    panel.retain_grad.setChecked(True)
    panel.run_backward()
    panel.select_node(panel.graph.roots[0])
    assert panel.built.root.grad.item() == 1.0 and ".grad: 1" in panel.details.toPlainText()


def test_the_backward_button_runs_backward_off_the_gui_thread(qtbot, panel):
    panel.show_preset("square")  # y = x**2 + 3*x at x = 2
    panel.bar.backward_button.click()
    assert not panel.bar.backward_button.isEnabled()  # busy until the pass is recorded
    qtbot.waitUntil(lambda: panel.stepper is not None, timeout=10_000)
    qtbot.waitUntil(lambda: not panel.backward_worker.is_running())
    assert panel.bar.backward_button.isEnabled() and panel.passes == 1
    x_node = next(n for n in panel.graph.nodes_of_kind("accumulate_grad"))
    assert panel.graph.functions[x_node].variable.grad.item() == 7.0  # torch's own answer


def test_a_backward_finishing_after_the_graph_changed_is_dropped(qtbot, panel):
    panel.show_preset("square")
    panel.start_backward()
    panel.show_preset("accumulate")  # the user moved on while backward ran
    qtbot.waitUntil(lambda: not panel.backward_worker.is_running(), timeout=10_000)
    qtbot.waitUntil(lambda: panel.bar.backward_button.isEnabled())
    assert panel.stepper is None and panel.passes == 0
