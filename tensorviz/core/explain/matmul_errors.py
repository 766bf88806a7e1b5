"""Explanations for matrix products that torch refuses: inner sizes, batch dims, mm/bmm ranks,
and the classic `Q @ K.T` on batches, where `.T` reverses every dim instead of the last two.

Suggested fixes are tried on shape-only meta tensors before they are offered, so every product
the text proposes really fits and has the shape the text gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch

from tensorviz.core.explain.rules import (
    ErrorParts,
    Rule,
    both,
    either,
    format_shape,
    listing,
    rule_into,
    sentences,
)
from tensorviz.core.translation import _

MATMUL_OPS = {"matmul", "mm", "bmm", "@", "__matmul__", "mv", "dot", "linear", "einsum"}

MATMUL_RULES: list[Rule] = []
_rule = rule_into(MATMUL_RULES)


def meta_matmul(a_shape, b_shape) -> list[int] | None:
    """Ask torch itself (on shape-only meta tensors) whether a product fits and what it gives."""
    try:
        a, b = torch.empty(a_shape, device="meta"), torch.empty(b_shape, device="meta")
        return list(torch.matmul(a, b).shape)
    except Exception:  # noqa: BLE001 — any refusal just means "this suggestion does not fit"
        return None


def _swapped(shape: list[int]) -> list[int]:
    return shape[:-2] + shape[-2:][::-1] if len(shape) >= 2 else shape


def _transpose_suggestions(a_shape: list[int], b_shape: list[int]) -> list[str]:
    ta = "a.T" if len(a_shape) == 2 else "a.mT"
    tb = "b.T" if len(b_shape) == 2 else "b.mT"
    tries = [(f"{ta} @ b", _swapped(a_shape), b_shape), (f"a @ {tb}", a_shape, _swapped(b_shape))]
    fits = []
    for text, left, right in tries:
        if len(left) >= 2 or len(right) >= 2:
            result = meta_matmul(left, right)
            if result is not None:
                fits.append(
                    _("{code} (gives {shape})").format(code=text, shape=format_shape(result))
                )
    return fits


def matmul_rule() -> str:
    return _("(..., M, K) @ (..., K, N) → (..., M, N): the K of a must equal the K of b.")


def _mismatch_detail(a_shape: list[int], b_shape: list[int]) -> str:
    """What disagrees in this product, in one sentence (after the rule, or on its own)."""
    k_a = a_shape[-1]
    k_b = b_shape[-2] if len(b_shape) >= 2 else b_shape[0]
    a, b = format_shape(a_shape), format_shape(b_shape)
    if k_a != k_b:
        return _("Here a is {a} and b is {b}: a's K is {k_a} but b's K is {k_b}.").format(
            a=a, b=b, k_a=k_a, k_b=k_b
        )
    return _(
        "Here a is {a} and b is {b}; K = {k} agrees, but the batch dims {batch_a} and {batch_b} "
        "(everything before the last two) do not broadcast."
    ).format(
        a=a, b=b, k=k_a, batch_a=format_shape(a_shape[:-2]), batch_b=format_shape(b_shape[:-2])
    )


def matmul_mismatch(a_shape: list[int], b_shape: list[int]) -> tuple[str, str]:
    """(why, fix) for a product whose inner sizes or batch dims disagree."""
    k_b = b_shape[-2] if len(b_shape) >= 2 else b_shape[0]
    why = sentences(matmul_rule(), _mismatch_detail(a_shape, b_shape))
    if a_shape[-1] == k_b:
        return why, _("make the batch dims equal, or 1 on one side so it broadcasts (unsqueeze)")
    fits = _transpose_suggestions(a_shape, b_shape)
    if fits:
        return why, _("transpose so the inner sizes meet: {options}").format(options=either(fits))
    return why, _("reshape so a's last size equals b's second-to-last; check the operand order")


def _written(params: Mapping[str, object], position: int, default: str) -> str:
    """How operand `position` was written (the script's expression or the workspace's code)."""
    exprs = params.get("input_exprs") or ()
    names = params.get("input_names") or ()
    for known in (exprs, names):
        if position < len(known) and known[position]:
            return str(known[position])
    return default


def _reversed_by_dot_t(tensors: Sequence[torch.Tensor], params) -> int | None:
    """The operand written `X.T` on a tensor of 3 or more dims, if there is one."""
    for position, tensor in enumerate(tensors[:2]):
        written = _written(params, position, "")
        if written.replace(" ", "").endswith(".T") and tensor.dim() > 2:
            return position
    return None


def explain_dot_t_on_batches(tensors, params) -> ErrorParts | None:
    """`Q @ K.T` with 3-D K: `.T` gave every dim reversed, the product cannot fit."""
    position = _reversed_by_dot_t(tensors, params)
    if position is None or len(tensors) < 2:
        return None
    operand = tensors[position]
    written = _written(params, position, "b.T").replace(" ", "")
    base = written[: -len(".T")]
    base_shape = list(operand.shape)[::-1]
    fixed_shape = _swapped(base_shape)
    shapes = [list(t.shape) for t in tensors[:2]]
    reversed_all = _(
        "{written} reverses ALL {ndim} dims of {base}: {base} is {base_shape}, so {written} is "
        "{shape}, not the {wanted} a batched matrix product needs (it swaps only the last two "
        "dims and keeps the batch dims in front). torch also warns that .T on a tensor that is "
        "not 2-D is deprecated."
    ).format(
        written=written,
        ndim=operand.dim(),
        base=base,
        base_shape=format_shape(base_shape),
        shape=format_shape(operand.shape),
        wanted=format_shape(fixed_shape),
    )
    why = sentences(reversed_all, _mismatch_detail(*shapes))
    shapes[position] = fixed_shape
    result = meta_matmul(*shapes)
    swapped = f"{base}.mT"
    other = _written(params, 1 - position, "a")
    product = f"{other} @ {swapped}" if position == 1 else f"{swapped} @ {other}"
    if result is not None:
        fix = _(
            "use {swapped} (or {base}.transpose(-2, -1)), which swaps only the last two dims: "
            "{product} gives {shape}"
        ).format(swapped=swapped, base=base, product=product, shape=format_shape(result))
    else:
        fix = _(
            "use {swapped} (or {base}.transpose(-2, -1)) to swap only the last two dims; "
            "{product} still needs the inner sizes to agree: {detail}"
        ).format(swapped=swapped, base=base, product=product, detail=_mismatch_detail(*shapes))
    return "matmul_shape", _(".T reversed every dim of a batch of matrices"), why, fix


@_rule(
    r"shapes cannot be multiplied \((?P<m>\d+)x(?P<k_a>\d+) and (?P<k_b>\d+)x(?P<n>\d+)\)",
    r"size mismatch, got input \(\d+\), mat \((?P<m>\d+)x(?P<k_a>\d+)\), vec \((?P<k_b>\d+)\)",
    r"inconsistent tensor size, expected tensor \[(?P<len_a>\d+)\] and src \[(?P<len_b>\d+)\]",
)
def explain_inner_sizes(match, op, tensors, params) -> ErrorParts | None:
    title = _("Matrix product: the inner sizes must agree")
    if explained := explain_dot_t_on_batches(tensors, params):
        return explained
    shapes = [list(t.shape) for t in tensors[:2]]
    if len(shapes) == 2 and min(len(s) for s in shapes) >= 1:
        why, fix = matmul_mismatch(*shapes)
        return "matmul_shape", title, why, fix
    found = {name: int(value) for name, value in match.groupdict().items() if value}
    if "k_b" in found:  # "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"
        a_shape = [found["m"], found["k_a"]]
        b_shape = [found["k_b"], found["n"]] if "n" in found else [found["k_b"]]
        why, fix = matmul_mismatch(a_shape, b_shape)
        return "matmul_shape", title, why, fix
    if "len_a" in found and op in MATMUL_OPS:  # 1-D @ 1-D: "expected tensor [3] and src [4]"
        why = _("A dot product needs equal lengths; got {a} and {b}.").format(
            a=found["len_a"], b=found["len_b"]
        )
        return "matmul_shape", title, why, _("slice or pad so both vectors have the same length")
    return None


@_rule(r"must be a matrix")
def explain_mm_needs_matrices(match, op, tensors, params) -> ErrorParts:
    named = listing(
        _("{shape} ({ndim}-D)").format(shape=format_shape(t.shape), ndim=t.dim())
        for t in tensors[:2]
    )
    if named:
        why = _("mm() multiplies exactly two 2-D matrices; got {inputs}.").format(inputs=named)
    else:
        why = _("mm() multiplies exactly two 2-D matrices.")
    fix = _("use a @ b (torch.matmul), which also accepts vectors and batches, or reshape to 2-D")
    return "matmul_shape", _("mm() works on 2-D matrices only"), why, fix


@_rule(
    r"must be a 3D tensor",
    r"first two dimensions of batch2 tensor to be: \[(\d+), (\d+)\] but got: \[(\d+), (\d+)\]",
)
def explain_batched_product(match, op, tensors, params) -> ErrorParts:
    if explained := explain_dot_t_on_batches(tensors, params):
        return explained
    shapes = [list(t.shape) for t in tensors[:2]]
    if "batch2" in match.string and op != "bmm" and len(shapes) == 2 and min(map(len, shapes)):
        why, fix = matmul_mismatch(*shapes)  # a @ b broadcast to a bmm: the inner sizes differ
        return "matmul_shape", _("Matrix product: the inner sizes must agree"), why, fix
    why = _("bmm() multiplies two batches (B, M, K) @ (B, K, N): both 3-D, same B.")
    if shapes:
        got = _("Got {shapes}.").format(shapes=both(format_shape(s) for s in shapes))
        why = sentences(why, got)
    elif match.lastindex:
        b, k, got_b, got_k = (int(g) for g in match.groups())
        starts = _("b should start with [B, K] = [{b}, {k}] but starts with [{got_b}, {got_k}].")
        why = sentences(why, starts.format(b=b, k=k, got_b=got_b, got_k=got_k))
    fix = _("use a @ b for other shapes (it broadcasts batch dims); unsqueeze(0) one matrix")
    return "matmul_shape", _("bmm() needs two 3-D batches of matrices"), why, fix


@_rule(r"need to be at least 1D")
def explain_matmul_of_scalars(match, op, tensors, params) -> ErrorParts:
    if tensors:
        why = _("matmul needs at least 1-D operands; got {ndims}.").format(
            ndims=both(f"{t.dim()}-D" for t in tensors[:2])
        )
    else:
        why = _("matmul needs at least 1-D operands.")
    fix = _("use * to multiply by a 0-d scalar tensor; @ is for vectors and matrices")
    return "matmul_shape", _("@ needs vectors or matrices, not 0-d scalars"), why, fix


def explain_batch_broadcast(op, tensors, params) -> ErrorParts | None:
    """A broadcast failure inside a product (torch reports the batch dims that disagree)."""
    if op not in MATMUL_OPS or len(tensors) < 2 or min(t.dim() for t in tensors[:2]) < 1:
        return None
    if explained := explain_dot_t_on_batches(tensors, params):
        return explained
    why, fix = matmul_mismatch(list(tensors[0].shape), list(tensors[1].shape))
    return "matmul_shape", _("Matrix product: batch dims must broadcast"), why, fix
