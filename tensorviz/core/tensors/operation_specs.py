"""The operations a learner can apply in the Workbench, each a thin call into torch.

A spec (op_spec.OpSpec) names its parameters (validated by op_params before torch runs) and a
code template that shows the equivalent PyTorch line. Nothing here decides view vs copy: that
verdict comes from comparing storages after torch has run (tensor_identity.view_verdict).
"""

from __future__ import annotations

import torch

from tensorviz.core.tensors.op_params import ParamSpec
from tensorviz.core.tensors.op_spec import OpSpec
from tensorviz.core.translation import N_

P = ParamSpec
DIM = P("dim", "int", "0")
OPTIONAL_DIM = P("dim", "optional_int", "None", N_("leave empty to reduce over all elements"))
KEEPDIM = P("keepdim", "bool", "False")
OTHER = P("other", "tensor_or_number", "2", N_("a workspace tensor name or a number"))
SHAPE = P("shape", "ints", "", N_("e.g. 6, 4 or -1, 4 (one -1 is inferred)"))
INDEX_TENSOR = P("index", "index_tensor", "", N_("an int64 workspace tensor of positions"))


def _reduce(fn: str):
    def run(x, dim, keepdim):
        return getattr(x, fn)(dim=dim, keepdim=keepdim)

    return run


def _max_or_min(fn: str):
    """x.max() over everything, or x.max(dim, keepdim) → (values, indices); torch has no
    dim=None form for these two."""

    def run(x, dim, keepdim):
        method = getattr(x, fn)
        return method() if dim is None else method(dim=dim, keepdim=keepdim)

    return run


def _without_dim_when_none(with_dim: str, without_dim: str):
    """A code template that matches what runs: `x.max()` when no dim is given."""
    return lambda **shown: (without_dim if shown["dim"] == "None" else with_dim).format(**shown)


def _index_assign(x, index, value):
    x[index] = value
    return x


def _one_hot(x, num_classes):
    # on x's device, so that sizing on the meta device allocates nothing
    return torch.zeros(x.shape[0], num_classes, device=x.device).scatter_(1, x.unsqueeze(1), 1)


OPERATIONS: tuple[OpSpec, ...] = (
    # --- shape and views --------------------------------------------------------------------
    OpSpec(
        "view",
        "Shape & views",
        (SHAPE,),
        lambda x, shape: x.view(*shape),
        "{x}.view({shape})",
    ),
    OpSpec(
        "reshape",
        "Shape & views",
        (SHAPE,),
        lambda x, shape: x.reshape(*shape),
        "{x}.reshape({shape})",
    ),
    OpSpec(
        "flatten",
        "Shape & views",
        (P("start_dim", "int", "0"), P("end_dim", "int", "-1")),
        lambda x, start_dim, end_dim: x.flatten(start_dim, end_dim),
        "{x}.flatten({start_dim}, {end_dim})",
    ),
    OpSpec(
        "squeeze",
        "Shape & views",
        (P("dim", "optional_int", "None"),),
        lambda x, dim: x.squeeze() if dim is None else x.squeeze(dim),
        _without_dim_when_none("{x}.squeeze({dim})", "{x}.squeeze()"),
    ),
    OpSpec(
        "unsqueeze",
        "Shape & views",
        (DIM,),
        lambda x, dim: x.unsqueeze(dim),
        "{x}.unsqueeze({dim})",
    ),
    OpSpec(
        "transpose",
        "Shape & views",
        (P("dim0", "int", "0"), P("dim1", "int", "1")),
        lambda x, dim0, dim1: x.transpose(dim0, dim1),
        "{x}.transpose({dim0}, {dim1})",
    ),
    OpSpec(
        "permute",
        "Shape & views",
        (P("dims", "ints", "", N_("a new order of all dims, e.g. 2, 0, 1")),),
        lambda x, dims: x.permute(*dims),
        "{x}.permute({dims})",
    ),
    OpSpec("t", "Shape & views", (), lambda x: x.t(), "{x}.t()"),
    OpSpec(
        "T",
        "Shape & views",
        (),
        lambda x: x.T,
        "{x}.T",
    ),
    OpSpec(
        "contiguous",
        "Shape & views",
        (),
        lambda x: x.contiguous(),
        "{x}.contiguous()",
    ),
    OpSpec(
        "expand",
        "Shape & views",
        (P("shape", "ints", "", N_("-1 keeps a dim; size-1 dims stretch")),),
        lambda x, shape: x.expand(*shape),
        "{x}.expand({shape})",
    ),
    OpSpec(
        "broadcast_to",
        "Shape & views",
        (SHAPE,),
        lambda x, shape: torch.broadcast_to(x, shape),
        "torch.broadcast_to({x}, ({shape}))",
    ),
    OpSpec(
        "repeat",
        "Shape & views",
        (P("repeats", "ints", "2, 1", N_("how often to tile each dim")),),
        lambda x, repeats: x.repeat(*repeats),
        "{x}.repeat({repeats})",
    ),
    OpSpec("clone", "Shape & views", (), lambda x: x.clone(), "{x}.clone()"),
    OpSpec(
        "detach",
        "Shape & views",
        (),
        lambda x: x.detach(),
        "{x}.detach()",
    ),
    OpSpec(
        "narrow",
        "Shape & views",
        (DIM, P("start", "int", "0"), P("length", "int", "1")),
        lambda x, dim, start, length: x.narrow(dim, start, length),
        "{x}.narrow({dim}, {start}, {length})",
    ),
    # --- indexing ---------------------------------------------------------------------------
    OpSpec(
        "index",
        "Indexing",
        (P("index", "index", "0", N_("e.g. 0, 1:3  or  ..., 0  or  x > 0")),),
        lambda x, index: x[index],
        "{x}[{index}]",
    ),
    OpSpec(
        "index_select",
        "Indexing",
        (DIM, P("index", "ints", "0", N_("indices along dim"))),
        lambda x, dim, index: x.index_select(dim, torch.tensor(index, device=x.device)),
        "{x}.index_select({dim}, torch.tensor([{index}]))",
    ),
    OpSpec(
        "gather",
        "Indexing",
        (DIM, INDEX_TENSOR),
        lambda x, dim, index: x.gather(dim, index),
        "{x}.gather({dim}, {index})",
    ),
    OpSpec(
        "scatter",
        "Indexing",
        (DIM, INDEX_TENSOR, P("value", "number", "1")),
        lambda x, dim, index, value: x.scatter(dim, index, value),
        "{x}.scatter({dim}, {index}, {value})",
    ),
    OpSpec(
        "one_hot",
        "Indexing",
        (P("num_classes", "int", "10"),),
        _one_hot,
        "torch.zeros({x}.shape[0], {num_classes}).scatter_(1, {x}.unsqueeze(1), 1)",
    ),
    # --- join and split ---------------------------------------------------------------------
    OpSpec(
        "cat",
        "Join & split",
        (P("tensors", "tensors", "", N_("names, e.g. a, b")), DIM),
        lambda x, tensors, dim: torch.cat(tensors, dim=dim),
        "torch.cat({tensors}, dim={dim})",
        takes_input=False,
    ),
    OpSpec(
        "stack",
        "Join & split",
        (P("tensors", "tensors", "", N_("names, e.g. a, b")), DIM),
        lambda x, tensors, dim: torch.stack(tensors, dim=dim),
        "torch.stack({tensors}, dim={dim})",
        takes_input=False,
    ),
    OpSpec(
        "split",
        "Join & split",
        (P("split_size", "sizes", "1", N_("one size, or a list like [1, 2]")), DIM),
        lambda x, split_size, dim: x.split(
            list(split_size) if isinstance(split_size, tuple) else split_size, dim
        ),
        "{x}.split({split_size}, dim={dim})",
    ),
    OpSpec(
        "chunk",
        "Join & split",
        (P("chunks", "int", "2"), DIM),
        lambda x, chunks, dim: x.chunk(chunks, dim),
        "{x}.chunk({chunks}, dim={dim})",
    ),
    OpSpec("unbind", "Join & split", (DIM,), lambda x, dim: x.unbind(dim), "{x}.unbind({dim})"),
    # --- arithmetic -------------------------------------------------------------------------
    OpSpec("add", "Arithmetic", (OTHER,), lambda x, other: x + other, "{x} + {other}"),
    OpSpec("sub", "Arithmetic", (OTHER,), lambda x, other: x - other, "{x} - {other}"),
    OpSpec(
        "mul",
        "Arithmetic",
        (OTHER,),
        lambda x, other: x * other,
        "{x} * {other}",
    ),
    OpSpec("div", "Arithmetic", (OTHER,), lambda x, other: x / other, "{x} / {other}"),
    OpSpec("pow", "Arithmetic", (OTHER,), lambda x, other: x**other, "{x} ** {other}"),
    OpSpec("relu", "Arithmetic", (), torch.relu, "torch.relu({x})"),
    OpSpec("sigmoid", "Arithmetic", (), torch.sigmoid, "torch.sigmoid({x})"),
    OpSpec("tanh", "Arithmetic", (), torch.tanh, "torch.tanh({x})"),
    # --- matrix -----------------------------------------------------------------------------
    OpSpec(
        "matmul",
        "Matrix",
        (P("other", "tensor", ""),),
        lambda x, other: x @ other,
        "{x} @ {other}",
    ),
    OpSpec(
        "mm",
        "Matrix",
        (P("other", "tensor", ""),),
        lambda x, other: torch.mm(x, other),
        "torch.mm({x}, {other})",
    ),
    OpSpec(
        "bmm",
        "Matrix",
        (P("other", "tensor", ""),),
        lambda x, other: torch.bmm(x, other),
        "torch.bmm({x}, {other})",
    ),
    # --- reductions -------------------------------------------------------------------------
    OpSpec(
        "sum",
        "Reductions",
        (OPTIONAL_DIM, KEEPDIM),
        _reduce("sum"),
        "{x}.sum(dim={dim}, keepdim={keepdim})",
    ),
    OpSpec(
        "mean",
        "Reductions",
        (OPTIONAL_DIM, KEEPDIM),
        _reduce("mean"),
        "{x}.mean(dim={dim}, keepdim={keepdim})",
    ),
    OpSpec(
        "max",
        "Reductions",
        (OPTIONAL_DIM, KEEPDIM),
        _max_or_min("max"),
        _without_dim_when_none("{x}.max(dim={dim}, keepdim={keepdim})", "{x}.max()"),
    ),
    OpSpec(
        "min",
        "Reductions",
        (OPTIONAL_DIM, KEEPDIM),
        _max_or_min("min"),
        _without_dim_when_none("{x}.min(dim={dim}, keepdim={keepdim})", "{x}.min()"),
    ),
    OpSpec(
        "argmax",
        "Reductions",
        (OPTIONAL_DIM, KEEPDIM),
        _reduce("argmax"),
        "{x}.argmax(dim={dim}, keepdim={keepdim})",
    ),
    OpSpec(
        "std",
        "Reductions",
        (OPTIONAL_DIM, KEEPDIM),
        _reduce("std"),
        "{x}.std(dim={dim}, keepdim={keepdim})",
    ),
    # --- dtype and device -------------------------------------------------------------------
    OpSpec("float", "Type & device", (), lambda x: x.float(), "{x}.float()"),
    OpSpec("long", "Type & device", (), lambda x: x.long(), "{x}.long()"),
    OpSpec(
        "to_dtype",
        "Type & device",
        (P("dtype", "dtype", "float64"),),
        lambda x, dtype: x.to(dtype),
        "{x}.to({dtype})",
    ),
    OpSpec(
        "to_device",
        "Type & device",
        (P("device", "device", "cpu"),),
        lambda x, device: x.to(device),
        "{x}.to({device})",
    ),
    # --- in place ---------------------------------------------------------------------------
    OpSpec(
        "add_",
        "In place",
        (OTHER,),
        lambda x, other: x.add_(other),
        "{x}.add_({other})",
        inplace=True,
    ),
    OpSpec(
        "mul_",
        "In place",
        (OTHER,),
        lambda x, other: x.mul_(other),
        "{x}.mul_({other})",
        inplace=True,
    ),
    OpSpec("zero_", "In place", (), lambda x: x.zero_(), "{x}.zero_()", inplace=True),
    OpSpec(
        "fill_",
        "In place",
        (P("value", "number", "1"),),
        lambda x, value: x.fill_(value),
        "{x}.fill_({value})",
        inplace=True,
    ),
    OpSpec(
        "index_assign",
        "In place",
        (P("index", "index", "0", N_("e.g. 0, :  or  x > 0")), P("value", "tensor_or_number", "0")),
        _index_assign,
        "{x}[{index}] = {value}",
        inplace=True,
        index_probe=lambda stand_in, index, value: stand_in[index],
    ),
    OpSpec(
        "scatter_",
        "In place",
        (DIM, INDEX_TENSOR, P("value", "number", "1")),
        lambda x, dim, index, value: x.scatter_(dim, index, value),
        "{x}.scatter_({dim}, {index}, {value})",
        inplace=True,
        index_probe=lambda stand_in, dim, index, value: stand_in.gather(dim, index),
    ),
)

OPERATIONS_BY_NAME = {op.name: op for op in OPERATIONS}


CATEGORIES = tuple(dict.fromkeys(op.category for op in OPERATIONS))
