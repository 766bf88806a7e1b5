"""The Architecture area with qtbot: a preset recorded in the worker, depth and folding, a box
opened by double-click and a frame closed by its header, search, export, and the link both ways
with the Autograd graph (found by the output tensor's grad_fn)."""

import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.forward.module_tags import FORWARD_KEY
from tensorviz.core.forward.tensor_structure import flatten_tensors
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.autograd.graph_items import NodeItem
from tensorviz.ui.autograd.graph_panel import GraphPanel
from tensorviz.ui.forward.architecture_panel import ArchitecturePanel


@pytest.fixture
def panel(qtbot):
    widget = ArchitecturePanel()
    qtbot.addWidget(widget)
    widget.resize(1000, 640)
    widget.show()
    qtbot.waitUntil(lambda: widget.current is not None, timeout=60_000)
    yield widget
    widget.shutdown()


def _show(panel, qtbot, key):
    with qtbot.waitSignal(panel.architecture_shown, timeout=60_000):
        panel.show_subject(key)


def _shown_kinds(panel):
    return [d["kind"] for _, d in panel.view.architecture.graph.nodes(data=True)]


def test_transformer_preset_is_folded_and_depth_changes_the_picture(panel, qtbot):
    record = panel.current.architecture.record
    assert panel.picker.currentText() == "preset: TransformerEncoder, 4 layers"
    assert "TransformerEncoderLayer × 4" in panel.details.toPlainText()
    frames = [f.title for f in panel.view.architecture.frames]
    assert any("TransformerEncoderLayer × 4" in t for t in frames)
    panel.depth.setValue(0)
    assert sorted(_shown_kinds(panel)) == ["input", "module", "output"]
    panel.depth.setValue(panel.depth.maximum())
    panel.fold.setChecked(False)
    ops = {
        d["item"] for _, d in panel.view.architecture.graph.nodes(data=True) if d["kind"] == "op"
    }
    assert ops == {n.id for n in record.nodes.values() if n.kind == "op"}
    assert panel.depth_note.text() == "every op"


def test_double_click_opens_a_box_and_the_header_closes_its_frame(panel, qtbot):
    panel.depth.setValue(1)
    view = panel.view
    view.build_all_items()
    (box,) = [i for i in view.scene().items() if isinstance(i, NodeItem) and i.kind == "fold"]
    view.focus_on(box.node)
    point = view.mapFromScene(box.scenePos())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    blocks = [
        d["label"] for _, d in view.architecture.graph.nodes(data=True) if d["kind"] == "module"
    ]
    assert blocks == [f"layers.{i} · TransformerEncoderLayer" for i in range(4)]
    call = panel.current.architecture.record.calls
    first = next(c for c in call.values() if c.module == "layers.0").id
    panel.toggle_item(first)
    frame = view.frame_items[first]
    header = frame.header_rect()
    view.centerOn(header.center())
    point = view.mapFromScene(header.left() + 30, header.center().y())
    with qtbot.waitSignal(view.item_toggled):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert first not in view.frame_items


def test_search_finds_dotted_names_and_export_writes_files(panel, qtbot, tmp_path):
    panel.search.setText("self_attn")
    assert panel.matches
    panel.focus_next_match()
    assert panel.selected == panel.matches[0]
    assert "MultiheadAttention" in panel.details.toPlainText()
    for suffix in (".png", ".svg", ".dot"):
        assert panel.export_to(str(tmp_path / f"arch{suffix}"))
        assert (tmp_path / f"arch{suffix}").stat().st_size > 100


def test_meta_preset_says_shapes_only(panel, qtbot):
    _show(panel, qtbot, "preset:mlp")
    assert not panel.notice.isVisible()
    from tensorviz.core.forward.presets import ForwardSubject

    def meta_subject():
        with torch.device("meta"):
            model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU())
            return ForwardSubject(model, (torch.zeros(2, 4096),), "meta(x)")

    panel.add_subject("test:meta", "test: meta", meta_subject)
    _show(panel, qtbot, "test:meta")
    assert panel.notice.isVisible() and "meta tensors hold no values" in panel.notice.text()


def test_a_failing_forward_is_drawn_up_to_its_op(panel, qtbot):
    from tensorviz.core.forward.presets import ForwardSubject

    def broken():
        model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Linear(5, 2))
        return ForwardSubject(model, (torch.randn(2, 3),), "broken(x)")

    panel.add_subject("test:broken", "test: broken", broken)
    _show(panel, qtbot, "test:broken")
    record = panel.current.architecture.record
    assert record.failed_node is not None
    kinds = _shown_kinds(panel)
    assert "failed" in kinds or record.failed_node in {
        panel.current.architecture.shown_item(record.failed_node)
    }
    assert "raised" in panel.notice.text() and "raised" in panel.details.toPlainText()


def test_linked_both_ways_with_the_backward_graph(panel, qtbot):
    graph_panel = GraphPanel(Workspace())
    qtbot.addWidget(graph_panel)
    panel.backward_requested.connect(lambda request: graph_panel.show_forward(*request))
    record = panel.current.architecture.record
    linear = next(n for n in record.nodes.values() if n.label == "linear")
    panel.selected = linear.id
    panel.request_backward()
    root = next(t for _, t in flatten_tensors(panel.current.outputs) if t.grad_fn is not None)
    assert graph_panel.built.root is root
    node = graph_panel.selected
    assert graph_panel.graph.functions[node].metadata[FORWARD_KEY] == (record.serial, linear.id)
    with qtbot.waitSignal(graph_panel.forward_op_selected) as selected:
        graph_panel.select_node(node)
    assert selected.args == [record.serial, linear.id]
    assert panel.select_recorded(*selected.args)
    assert panel.selected == panel.current.architecture.shown_item(linear.id)
    graph_panel.shutdown()


def test_a_tied_weight_is_named_in_the_details_and_counted_once(panel, qtbot):
    import sys
    from pathlib import Path

    from tensorviz.core.forward.nested_layout import params_text
    from tensorviz.core.forward.presets import ForwardSubject

    sys.path.insert(0, str(Path(__file__).parents[2]))
    from model_shapes import GPT2LMHeadModel

    torch.manual_seed(0)
    model = GPT2LMHeadModel(hidden=16, layers=2)
    subject = ForwardSubject(model, (torch.randint(0, 100, (1, 5)),), "model(ids)")
    panel.add_subject("test:gpt2", "test: GPT-2", lambda: subject)
    _show(panel, qtbot, "test:gpt2")
    intro = panel.details.toPlainText()
    sentence = "lm_head.weight is tied to transformer.wte.weight: one tensor, counted once"
    assert sentence in intro
    assert params_text(sum(p.numel() for p in model.parameters())) in intro  # once, as torch
    record = panel.current.architecture.record
    head = next(c.id for c in record.calls.values() if c.module == "lm_head")
    panel.select_item(head)
    assert sentence in panel.details.toPlainText()
