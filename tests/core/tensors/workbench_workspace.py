"""The workspace the Workbench action tests start from, and how they check it is unchanged."""

import torch

from tensorviz.core.tensors.workspace import Provenance, Workspace


def base():
    return torch.arange(24.0).reshape(2, 3, 4)


def workspace():
    ws = Workspace()
    ws.add_tensor("x", base(), Provenance("arange", "torch.arange(24.0).reshape(2, 3, 4)"))
    ws.add_tensor("m", torch.arange(12.0).reshape(3, 4), Provenance("arange", ""))
    ws.add_tensor("n", torch.arange(8.0).reshape(4, 2), Provenance("arange", ""))
    ws.add_tensor("b", torch.ones(2, 4, 5), Provenance("ones", ""))
    ws.add_tensor("col", torch.arange(3.0).reshape(3, 1), Provenance("arange", ""))
    ws.add_tensor("labels", torch.tensor([3, 0, 9, 1]), Provenance("tensor", ""))
    ws.add_tensor("idx", torch.tensor([[0, 1, 2, 0]] * 3), Provenance("tensor", ""))
    return ws


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def snapshot(ws):
    return ws.names(), {n: ws.tensor(n).clone() for n in ws.names()}, ws.undo_description()


def assert_unchanged(ws, before):
    names, values, undo = before
    assert ws.names() == names and ws.undo_description() == undo
    for n in names:
        assert torch.equal(ws.tensor(n), values[n])
