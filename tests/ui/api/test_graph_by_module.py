"""tensorviz.tag_modules() around a forward in the user's own code: tensorviz.graph(loss) then
groups the backward graph by the nn.Modules that made it (blocks of a ModuleList too) and finds
dotted module names; a model's graph made untagged says how to tag it."""

import sys
from pathlib import Path

import torch

import tensorviz
from tensorviz.api import viewer

sys.path.insert(0, str(Path(__file__).parents[2]))
from model_shapes import GPT2LMHeadModel  # noqa: E402


def graph_panel(qtbot):
    window = viewer.current_window()
    qtbot.waitUntil(window.is_ready, timeout=60_000)
    panel = window.panel("graph")
    qtbot.waitUntil(lambda: panel.layout_result is not None, timeout=60_000)
    return panel


def gpt2_loss(tagged: bool):
    torch.manual_seed(0)
    model = GPT2LMHeadModel(layers=3)
    ids = torch.randint(0, 100, (1, 5))
    if not tagged:
        return model(ids).logits.sum()
    with tensorviz.tag_modules():
        return model(ids).logits.sum()


def test_a_graph_made_inside_tag_modules_groups_by_its_blocks(api, qtbot, capsys):
    loss = gpt2_loss(tagged=True)
    tensorviz.graph(loss, block=False)
    assert "with tensorviz.tag_modules():" not in capsys.readouterr().err  # nothing to advise
    panel = graph_panel(qtbot)
    assert panel.group_modules.isEnabled()
    panel.group_level.setValue(2)
    panel.group_modules.setChecked(True)
    labels = {d["label"] for _, d in panel.shown.nodes(data=True) if d["kind"] == "module"}
    assert {f"transformer.h.{i} · GPT2Block" for i in range(3)} <= labels
    panel.search.setText("h.1.attn")
    assert panel.matches


def test_an_untagged_model_graph_says_how_to_tag_it(api, qtbot, capsys):
    loss = gpt2_loss(tagged=False)
    tensorviz.graph(loss, block=False)
    err = capsys.readouterr().err
    assert "with tensorviz.tag_modules():" in err
    panel = graph_panel(qtbot)
    assert not panel.group_modules.isEnabled()  # nothing tells the modules apart
    assert "tensorviz.tag_modules()" in viewer.current_window().notice_bar.label.text()


def test_a_graph_without_parameters_gets_no_advice(api, qtbot, capsys):
    w = torch.tensor([2.0], requires_grad=True)
    tensorviz.graph((w * 3).sum(), block=False)
    assert "with tensorviz.tag_modules():" not in capsys.readouterr().err
    graph_panel(qtbot)
