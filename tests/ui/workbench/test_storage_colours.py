"""Storage colours stay distinct for every storage on screen, and the number on each swatch says
which tensors share memory (torch's data pointers decide) also beyond any palette's length."""

import itertools

import torch

from tensorviz.core.tensors.identity import shares_storage, storage_numbers
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.ui.memory.palette import member_colour
from tensorviz.ui.widgets.storage_palette import colour_distance, distinct_colour
from tensorviz.ui.workbench.workspace_list import WorkspaceListModel


def test_no_colour_repeats_for_hundreds_of_storages(qapp):
    names = [distinct_colour(i).name() for i in range(400)]
    assert len(set(names)) == len(names)


def test_the_first_two_dozen_colours_are_far_apart(qapp):
    colours = [distinct_colour(i) for i in range(24)]
    closest = min(colour_distance(a, b) for a, b in itertools.combinations(colours, 2))
    assert closest > 15  # CIE76: above ~10 two swatches side by side are told apart at a glance


def test_memory_strip_readers_get_distinct_colours_too(qapp):
    lanes = [member_colour(i).name() for i in range(30)]
    assert len(set(lanes)) == len(lanes)


def test_twelve_storages_twelve_colours_and_views_share_their_bases(qapp):
    ws = Workspace()
    for i in range(12):
        ws.add_tensor(f"t{i}", torch.full((2, 3), float(i)), Provenance("full", ""))
    ws.add_tensor("t3_row", ws.tensor("t3")[0], Provenance("index", "", ("t3",)))
    ws.add_tensor("t11_t", ws.tensor("t11").T, Provenance("T", "", ("t11",)))
    model = WorkspaceListModel(ws)
    numbers = {model.name_at(r): model.data(model.index(r), model.StorageRole) for r in range(14)}
    colours = {name: model.storage_colour(name).name() for name in numbers}
    for a, b in itertools.combinations(numbers, 2):
        same = shares_storage(ws.tensor(a), ws.tensor(b))  # torch's verdict
        assert (numbers[a] == numbers[b]) == same
        assert (colours[a] == colours[b]) == same
    assert len(set(colours.values())) == 12
    assert "storage 4, shared with t3" in model.data(
        model.index(model.row_of("t3_row")),
        role=3,  # ToolTipRole
    )
    assert not model.data(model.index(0), 1).isNull()  # a numbered swatch is drawn
    model.close()


def test_unrelated_meta_tensors_are_not_one_storage():
    a, b = torch.ones(2, device="meta"), torch.ones(2, device="meta")
    assert a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr() == 0  # why it matters
    assert not shares_storage(a, b) and shares_storage(a, a[1:])
    numbers = storage_numbers({"a": a, "b": b, "a_view": a[1:]})
    assert numbers == {"a": 1, "b": 2, "a_view": 1}
