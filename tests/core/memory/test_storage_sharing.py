"""Sharing groups equal the groups of untyped_storage().data_ptr(); NumPy arrays join theirs."""

import numpy as np
import torch

from tensorviz.core.memory.storage_sharing import group_of, sharing_groups
from tensorviz.core.memory.strides import storage_indices
from tensorviz.core.memory.write_probe import probe_in_place_write
from tensorviz.core.tensors.workspace import Provenance, Workspace


def make_workspace():
    workspace = Workspace()
    x = torch.arange(12.0).reshape(3, 4)
    array = np.arange(6, dtype=np.float64)
    tensors = {
        "x": x,
        "row": x[0, :],
        "x_t": x.t(),
        "flat": x.view(12),
        "wide": x[:, :1].expand(3, 5),
        "copy": x.contiguous().clone(),
        "rep": x[:1].repeat(2, 1),
        "ints": x.view(torch.int32),
        "from_np": torch.from_numpy(array),
    }
    for name, tensor in tensors.items():
        extra = {"numpy_array": array} if name == "from_np" else {}
        workspace.add_tensor(name, tensor, Provenance("test", name), **extra)
    return workspace, tensors


def test_groups_equal_data_ptr_groups():
    workspace, tensors = make_workspace()
    expected = {}
    for name, tensor in tensors.items():
        expected.setdefault(tensor.untyped_storage().data_ptr(), []).append(name)
    groups = sharing_groups(workspace)
    assert sorted(sorted(g.names) for g in groups) == sorted(sorted(v) for v in expected.values())
    assert group_of(groups, "copy").names == ["copy"]


def test_member_layout_reads_the_same_bytes_as_torch():
    workspace, tensors = make_workspace()
    group = group_of(sharing_groups(workspace), "x")
    base = group.key[1]
    for member in group.members:
        tensor = tensors[member.name]
        cells = storage_indices(member.layout)
        for index in np.ndindex(*tensor.shape):
            expected = (tensor[index].data_ptr() - base) // group.cell_bytes
            assert cells[index] == expected


def test_numpy_array_lies_on_its_tensors_strip_with_byte_strides():
    workspace, _ = make_workspace()
    group = group_of(sharing_groups(workspace), "from_np")
    numpy_member = next(m for m in group.members if m.is_numpy)
    assert numpy_member.name == "from_np (NumPy)"
    assert numpy_member.byte_stride == (8,) and numpy_member.layout.stride == (1,)
    assert "NumPy strides (8,) bytes = (1,) cells" in numpy_member.describe()


def test_copied_numpy_array_is_not_on_the_strip():
    workspace = Workspace()
    array = np.arange(4.0)
    workspace.add_tensor("t", torch.tensor(array), Provenance("t", "t"), numpy_array=array)
    group = group_of(sharing_groups(workspace), "t")
    assert [m.name for m in group.members] == ["t"]


def test_in_place_write_probe_shows_torchs_error_and_changes_nothing():
    x = torch.arange(3.0)
    expanded = x.expand(4, 3)
    explained = probe_in_place_write(expanded, "x_e")
    with_torch = None
    try:
        expanded.clone().expand(4, 3)  # keep the real tensor untouched
        torch.arange(3.0).expand(4, 3).add_(1)
    except RuntimeError as error:
        with_torch = str(error)
    assert explained.kind == "expanded_write" and explained.torch_message == with_torch
    assert torch.equal(x, torch.arange(3.0))
    assert probe_in_place_write(x.repeat(4, 1), "r") is None
