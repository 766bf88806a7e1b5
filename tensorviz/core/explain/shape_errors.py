"""Explanations for torch errors about shapes, strides and indices: view on a layout it cannot
read, element counts, broadcasting, expand, writes into stride-0 memory, cat/stack, dims and
indices out of range. The contract of an explainer is in rules.py; errors.py dispatches."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from tensorviz.core.explain.matmul_errors import explain_batch_broadcast
from tensorviz.core.explain.rules import (
    ErrorParts,
    Rule,
    clauses,
    first_name,
    format_shape,
    listing,
    rule_into,
    sentences,
)
from tensorviz.core.translation import _, ngettext

SHAPE_RULES: list[Rule] = []  # in definition order: the first match wins
_rule = rule_into(SHAPE_RULES)


def parse_sizes(text: str) -> list[int]:
    return [int(number) for number in re.findall(r"-?\d+", text)]


def broadcast_alignment(shapes: Sequence[Sequence[int]]) -> tuple[list[list[int]], list[int]]:
    """Shapes padded on the left with 1s, and the dims where no size-1 stretch makes them agree.

    Reproduces torch's broadcasting rule so the message can show it step by step; when the
    list of failing dims is empty the result shape equals ``torch.broadcast_shapes``.
    """
    ndim = max((len(shape) for shape in shapes), default=0)
    padded = [[1] * (ndim - len(shape)) + [int(size) for size in shape] for shape in shapes]
    failing = [d for d in range(ndim) if len({column[d] for column in padded} - {1}) > 1]
    return padded, failing


def broadcast_result(padded: Sequence[Sequence[int]]) -> list[int]:
    """Per dim: the one size other than 1 (the 1s stretch to it), or 1 when all are 1."""
    return [max(set(column) - {1}, default=1) for column in zip(*padded, strict=True)]


def _contiguity_breaks(shape: Sequence[int], stride: Sequence[int]) -> list[str]:
    """Neighbouring dims where stride[i] != stride[i+1] * size[i+1]; size-1 dims never matter."""
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    breaks = [
        _(
            "stride[{i}] = {stride_i} but stride[{j}] × size[{j}] = {stride_j} × {size_j} = "
            "{product}"
        ).format(
            i=i,
            j=j,
            stride_i=stride[i],
            stride_j=stride[j],
            size_j=shape[j],
            product=stride[j] * shape[j],
        )
        for i, j in zip(dims, dims[1:], strict=False)
        if stride[i] != stride[j] * shape[j]
    ]
    if dims and stride[dims[-1]] != 1:
        last = _("the last dim's stride[{dim}] = {stride}, not 1")
        breaks.append(last.format(dim=dims[-1], stride=stride[dims[-1]]))
    return breaks


def _shape_param(params: Mapping[str, object]) -> str:
    shape = params.get("shape", params.get("size", "..."))
    return ", ".join(map(str, shape)) if isinstance(shape, (tuple, list)) else str(shape)


@_rule(r"more than one element of the written-to tensor refers to a single memory location")
def explain_expanded_write(match, op, tensors, params) -> ErrorParts:
    why = _(
        "Some elements of the tensor you write into share one memory location (stride 0, as "
        "made by expand() or broadcasting), so one write would land in many places."
    )
    if tensors:
        x = tensors[0]
        zero = [
            _("dim {dim} (size {size})").format(dim=d, size=x.shape[d])
            for d in range(x.dim())
            if x.stride(d) == 0
        ]
        distinct = math.prod(x.shape[d] for d in range(x.dim()) if x.stride(d))
        layout = _(
            "Shape {shape}, strides {strides}: stride 0 at {dims}; its {count} elements use "
            "{locations} memory locations."
        )
        why = sentences(
            why,
            layout.format(
                shape=format_shape(x.shape),
                strides=format_shape(x.stride()),
                dims=listing(zero) or _("no dim"),
                count=x.numel(),
                locations=distinct,
            ),
        )
    name = first_name(params)
    fix = _(
        "{name} = {name}.clone() (or {name}.contiguous()) first, or build it with repeat() "
        "instead of expand()"
    ).format(name=name)
    return "expanded_write", _("Cannot write into an expanded (stride-0) tensor"), why, fix


@_rule(r"view size is not compatible with input tensor's size and stride")
def explain_view_non_contiguous(match, op, tensors, params) -> ErrorParts:
    title = _("view() needs a compatible memory layout")
    shape = _shape_param(params)
    why = _(
        "view() never copies: it reads the same storage with new sizes and strides, so it can only "
        "merge dims that step through memory evenly, one after the other."
    )
    name = first_name(params)
    if not tensors:
        fix = _("use {name}.reshape({shape}) or {name}.contiguous().view({shape})")
        return "view_non_contiguous", title, why, fix.format(name=name, shape=shape)
    x = tensors[0]
    breaks = _contiguity_breaks(x.shape, x.stride())
    nbytes = x.numel() * x.element_size()
    layout = _(
        "This tensor has shape {shape} and strides {strides}, so it is not contiguous: {reasons} "
        "(contiguous means stride[i] == stride[i+1] × size[i+1])."
    ).format(
        shape=format_shape(x.shape),
        strides=format_shape(x.stride()),
        reasons=clauses(breaks) or _("its layout cannot be read in the requested shape"),
    )
    copy = _(
        "reshape() or contiguous() would copy its {count} elements ({bytes} bytes) into a fresh "
        "contiguous tensor."
    ).format(count=x.numel(), bytes=nbytes)
    fix = _(
        "use {name}.reshape({shape}) or {name}.contiguous().view({shape}) — both copy {bytes} "
        "bytes here; view() itself never copies"
    ).format(name=name, shape=shape, bytes=nbytes)
    return "view_non_contiguous", title, sentences(why, layout, copy), fix


@_rule(
    r"shape '\[(?P<shape>[^\]]*)\]' is invalid for input of size (?P<numel>\d+)",
    r"only one dimension can be inferred",
)
def explain_view_shape(match, op, tensors, params) -> ErrorParts:
    title = _("The new shape must hold exactly the same number of elements")
    if match.re.pattern.startswith("only one"):
        why = _(
            "-1 means 'work this size out from the others'; with two -1s the answer is ambiguous."
        )
        return "view_shape_invalid", title, why, _("keep at most one -1 and give every other size")
    sizes = parse_sizes(match["shape"])
    numel = int(match["numel"])
    known = math.prod(size for size in sizes if size != -1)
    shown = "×".join("?" if size == -1 else str(size) for size in sizes) or _("a scalar")
    if -1 in sizes:
        why = _(
            "The tensor has {numel} elements but -1 would have to be {numel} / {known}; {numel} "
            "cannot be arranged as {shape}."
        )
    else:
        why = _(
            "The tensor has {numel} elements but {shape} holds {known}; {numel} cannot be "
            "arranged as {shape}."
        )
    why = why.format(numel=numel, known=known, shape=shown)
    pairs = [f"{a}×{numel // a}" for a in range(1, math.isqrt(numel) + 1) if numel % a == 0]
    hint = listing(pairs[:8]) if numel else _("any sizes with a 0")
    fix = _("choose sizes whose product is {numel} (e.g. {examples}), or one -1 for torch to infer")
    return "view_shape_invalid", title, why, fix.format(numel=numel, examples=hint)


@_rule(
    r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) at \S+ dimension (\d+)"
)
def explain_broadcast(match, op, tensors, params) -> ErrorParts:
    size_a, size_b, dim = (int(g) for g in match.groups())
    if in_product := explain_batch_broadcast(op, tensors, params):
        return in_product
    rule = _(
        "Broadcasting aligns shapes from the right, pads the shorter with 1s, and then each "
        "pair of sizes must be equal or contain a 1 (the 1 is stretched)."
    )
    aligned = failing_dims = ""
    if len(tensors) >= 2:
        padded, failing = broadcast_alignment([t.shape for t in tensors[:2]])
        aligned = _("Aligned: a → {a}, b → {b}.").format(
            a=format_shape(padded[0]), b=format_shape(padded[1])
        )
        if len(failing) > 1:
            failing_dims = _("Dims {dims} all fail.").format(dims=listing(map(str, failing)))
    at_dim = _("At dim {dim} the sizes are {a} and {b}: neither is 1 to stretch.").format(
        dim=dim, a=size_a, b=size_b
    )
    if op in ("mul", "*", "__mul__"):
        fix = _(
            "make dim {dim} agree — equal sizes, or a size-1 axis on one side (unsqueeze / "
            "[:, None]) where it should stretch; * multiplies element by element: for a matrix "
            "product use @"
        )
    else:
        fix = _(
            "make dim {dim} agree — equal sizes, or a size-1 axis on one side (unsqueeze / "
            "[:, None]) where it should stretch"
        )
    why = sentences(rule, aligned, failing_dims, at_dim)
    return "broadcast", _("These shapes cannot be broadcast together"), why, fix.format(dim=dim)


@_rule(
    r"expanded size of the tensor \((?P<wanted>-?\d+)\) must match the existing size "
    r"\((?P<existing>\d+)\) at non-singleton dimension (?P<dim>\d+)(?:.*?Target sizes: "
    r"(?P<target>\[[^\]]*\]).*?Tensor sizes: (?P<current>\[[^\]]*\]))?",
)
def explain_expand(match, op, tensors, params) -> ErrorParts:
    wanted, existing, dim = (int(match[g]) for g in ("wanted", "existing", "dim"))
    target = parse_sizes(match["target"] or "")
    current = parse_sizes(match["current"] or "") or (list(tensors[0].shape) if tensors else [])
    why = _(
        "expand() makes no copy: it can only stretch dims of size 1 (by giving them stride 0). "
        "Dim {dim} has size {existing}, which cannot become {wanted}."
    ).format(dim=dim, existing=existing, wanted=wanted)
    fix = _("pass -1 to keep a dim's size, or make that dim size 1 first (e.g. x[:, :1])")
    if target and current:
        padded = [1] * (len(target) - len(current)) + current
        aligned = _("Right-aligned: tensor {tensor}, target {target}.")
        why = sentences(
            why, aligned.format(tensor=format_shape(padded), target=format_shape(target))
        )
        pairs = list(zip(padded, target, strict=False))
        if all(s > 0 and t > 0 and t % s == 0 for s, t in pairs):
            factors = ", ".join(str(t // s) for s, t in pairs)
            fix = _(
                "pass -1 to keep a dim's size, or make that dim size 1 first (e.g. x[:, :1]); to "
                "tile real copies use x.repeat({factors})"
            ).format(factors=factors)
        else:
            fix = _(
                "pass -1 to keep a dim's size, or make that dim size 1 first (e.g. x[:, :1]); "
                "repeat() tiles by whole multiples if you need real copies"
            )
    return "broadcast", _("expand() can only stretch size-1 dimensions"), why, fix


@_rule(
    r"output with shape (?P<out>\[[^\]]*\]) doesn't match the broadcast shape (?P<result>\[.*?\])"
)
def explain_inplace_broadcast(match, op, tensors, params) -> ErrorParts:
    out_shape = parse_sizes(match["out"])
    result = parse_sizes(match["result"])
    if len(tensors) >= 2:
        padded, failing = broadcast_alignment([t.shape for t in tensors[:2]])
        if not failing:
            result = broadcast_result(padded)
    why = _(
        "An in-place op writes its result into the first tensor, shape {out}. Broadcasting both "
        "operands gives {result}, which does not fit: in-place ops may stretch the other operand "
        "but never resize the tensor they write into."
    ).format(out=format_shape(out_shape), result=format_shape(result))
    fix = _(
        "use the out-of-place form (x = x + y gives a new {result} tensor), or build x at the "
        "full shape first: x = x.expand({sizes}).clone()"
    ).format(result=format_shape(result), sizes=", ".join(map(str, result)))
    return "broadcast", _("An in-place result cannot change the tensor's shape"), why, fix


@_rule(
    r"Sizes of tensors must match except in dimension (?P<dim>\d+)\. Expected size "
    r"(?P<expected>\d+) but got size (?P<got>\d+) for tensor number (?P<number>\d+)",
    r"stack expects each tensor to be equal size",
)
def explain_cat(match, op, tensors, params) -> ErrorParts:
    shapes = [format_shape(t.shape) for t in tensors]
    if match.re.pattern.startswith("Sizes"):
        dim, expected, got, number = (int(match[g]) for g in ("dim", "expected", "got", "number"))
        why = _(
            "cat joins along dim {dim}, so every other dim must agree; tensor {number} has size "
            "{got} where tensor 0 has {expected}."
        ).format(dim=dim, number=number, got=got, expected=expected)
        title = _("cat() needs equal sizes in every other dimension")
    else:
        why = _("stack adds a new dim, so every tensor must have exactly the same shape.")
        title = _("stack() needs tensors of identical shape")
    if shapes:
        why = sentences(why, _("Shapes: {shapes}.").format(shapes=listing(shapes)))
    fix = _("join along the dim where sizes differ (dim=...), or slice/pad the odd tensor to match")
    return "cat_shape", title, why, fix


@_rule(r"Dimension out of range \(expected to be in range of \[(-?\d+), (-?\d+)\], but got (-?\d+)")
def explain_dim_range(match, op, tensors, params) -> ErrorParts:
    low, high, got = (int(g) for g in match.groups())
    why = _(
        "Dims are counted 0..{high} from the front or {low}..-1 from the back; you asked for dim "
        "{got}."
    ).format(high=high, low=low, got=got)
    if tensors:
        x = tensors[0]
        has = ngettext(
            "The tensor has {count} dim, shape {shape}.",
            "The tensor has {count} dims, shape {shape}.",
            x.dim(),
        )
        why = sentences(why, has.format(count=x.dim(), shape=format_shape(x.shape)))
    if op == "unsqueeze":
        why = sentences(why, _("unsqueeze allows one position more, because it inserts a new dim."))
    fix = _("use a dim in {low}..{high} (-1 is always the last); unsqueeze() to add a dim first")
    return (
        "dim_out_of_range",
        _("dim is out of range for this tensor"),
        why,
        fix.format(low=low, high=high),
    )


@_rule(
    r"index (-?\d+) is out of bounds for dimension (\d+) with size (\d+)",
    r"index out of range in self",
)
def explain_index(match, op, tensors, params) -> ErrorParts:
    title = _("Index is out of bounds")
    if match.lastindex:
        index, dim, size = (int(g) for g in match.groups())
        why = _(
            "Dim {dim} has size {size}, so valid indices are 0..{last} (or -{size}..-1 from the "
            "end); {index} is outside."
        ).format(dim=dim, size=size, last=size - 1, index=index)
        fix = _("keep indices below {size}; the last valid one is {last}")
        return "index_out_of_bounds", title, why, fix.format(size=size, last=size - 1)
    why = _("An index is larger than the table it looks into (embedding / index_select / gather).")
    fix = _("make the table bigger than the largest index, e.g. nn.Embedding(max_index + 1, dim)")
    integer = [t for t in tensors if not t.is_floating_point() and t.numel()]
    tables = [t for t in tensors if t.is_floating_point() and t.dim()]
    if integer and tables:
        index = integer[0]
        rows = tables[0].shape[0]
        run = _(
            "Indices run from {low} to {high}, but the table has {rows} rows (valid 0..{last})."
        ).format(low=int(index.min()), high=int(index.max()), rows=rows, last=rows - 1)
        why = sentences(why, run)
    return "index_out_of_bounds", title, why, fix
