"""The Architecture view's picture: depth, folds, opening and closing, frames that hold exactly
what ran inside their call, ports on their borders, edges labelled with their tensors."""

import torch
from model_shapes import GPT2LMHeadModel

from tensorviz.core.forward.architecture import Architecture
from tensorviz.core.forward.architecture_dot import architecture_dot
from tensorviz.core.forward.architecture_text import architecture_lines
from tensorviz.core.forward.recording import record_forward


def _gpt2(layers=3):
    torch.manual_seed(0)
    model = GPT2LMHeadModel(layers=layers)
    return record_forward(model, (torch.randint(0, 100, (2, 6)),))


def _inside(node, frame) -> bool:
    return (
        frame.left <= node.x - node.width / 2
        and node.x + node.width / 2 <= frame.right
        and frame.top <= node.y - node.height / 2
        and node.y + node.height / 2 <= frame.bottom
    )


def test_depth_zero_is_one_box_and_full_depth_shows_every_op():
    record = _gpt2()
    architecture = Architecture(record)
    architecture.set_depth(0)
    picture = architecture.arrange()
    kinds = sorted(d["kind"] for _, d in picture.graph.nodes(data=True))
    assert kinds == ["input", "module", "output", "output"] and not picture.frames
    architecture.set_depth(architecture.max_depth)
    architecture.set_folding(False)
    picture = architecture.arrange()
    shown_ops = {d["item"] for _, d in picture.graph.nodes(data=True) if d["kind"] == "op"}
    assert shown_ops == {n.id for n in record.nodes.values() if n.kind == "op"}
    assert len(picture.frames) == len(record.calls)


def test_every_item_lies_inside_the_frame_of_its_call():
    record = _gpt2()
    architecture = Architecture(record)
    architecture.set_depth(architecture.max_depth)
    picture = architecture.arrange()
    frames = {f.call: f for f in picture.frames}
    for key, placed in picture.layout.nodes.items():
        frame = picture.frame_of_item.get(key)
        if frame is not None:
            assert _inside(placed, frames[frame]), key
    for frame in picture.frames:  # nested frames inside their parent's
        parent = picture.frame_of_item.get(frame.call)
        if parent is not None:
            outer = frames[parent]
            assert outer.left <= frame.left and frame.right <= outer.right
            assert outer.top <= frame.top and frame.bottom <= outer.bottom


def test_folded_repeat_opens_into_its_members_and_closes_again():
    record = _gpt2(layers=4)
    architecture = Architecture(record)
    (fold,) = architecture.folds
    architecture.set_depth(record.calls[fold.members[0]].depth)  # blocks are closed boxes
    picture = architecture.arrange()
    boxes = [d for _, d in picture.graph.nodes(data=True) if d["kind"] == "fold"]
    assert [d["label"] for d in boxes] == ["h.0 … h.3 · GPT2Block × 4"]
    assert architecture.toggle(fold.members[0])  # a click opens the fold
    picture = architecture.arrange()
    blocks = [
        d["label"]
        for _, d in picture.graph.nodes(data=True)
        if d["kind"] == "module" and "GPT2Block" in d["label"]
    ]
    assert blocks == [f"h.{i} · GPT2Block" for i in range(4)]
    assert architecture.toggle(fold.members[2])  # then one block opens into a frame
    picture = architecture.arrange()
    assert fold.members[2] in {f.call for f in picture.frames}


def test_edges_carry_the_tensor_shape_and_ports_cut_them_at_frame_borders():
    record = _gpt2()
    architecture = Architecture(record)
    picture = architecture.arrange()
    for (source, target), tensors in picture.tensors.items():
        assert picture.graph.has_edge(source, target)
        assert all(t.dtype in ("float32", "int64", "bool") for t in tensors)
    frame_tops = {f.call: f.top for f in picture.frames}
    for node in picture.graph.nodes:
        if node.startswith("in:"):
            frame = node.split(":")[1]
            assert abs(picture.layout.nodes[node].y - frame_tops[frame]) < 80  # at the top
    dot = architecture_dot(picture)
    assert dot.count("subgraph") == len(picture.frames) and "[2, 6, 32] float32" in dot


def test_text_lines_fold_repeats():
    architecture = Architecture(_gpt2(layers=3))
    lines = architecture_lines(architecture)
    assert any("transformer.h.0 … transformer.h.2 · GPT2Block × 3" in line for line in lines)
    assert not any("transformer.h.1 ·" in line for line in lines)


def test_search_maps_dotted_names_to_what_is_drawn():
    record = _gpt2(layers=3)
    architecture = Architecture(record)
    architecture.arrange()  # block 0 open (the fold's face), its parts closed boxes
    found = record.find("h.1.attn")
    assert {record.calls[c].module for c in found} == {
        "transformer.h.1.attn" + suffix
        for suffix in ("", ".c_attn", ".c_proj", ".attn_dropout", ".resid_dropout")
    }
    shown = {architecture.shown_item(item) for item in found}
    (attn_of_block0,) = [c.id for c in record.calls.values() if c.module == "transformer.h.0.attn"]
    assert shown == {attn_of_block0}  # block 1 is folded onto block 0: its attention box
