"""Explanations for matrix products that torch refuses: inner sizes, batch dims, mm/bmm ranks,
and the classic `Q @ K.T` on batches, where `.T` reverses every dim instead of the last two.

Suggested fixes are tried on shape-only meta tensors before they are offered, so every product
the text proposes really fits and has the shape the text gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch

from tensorviz.core.explain.rules import ErrorParts, Rule, format_shape, rule_into

MATMUL_OPS = {"matmul", "mm", "bmm", "@", "__matmul__", "mv", "dot", "linear", "einsum"}
MATMUL_RULE = "(..., M, K) @ (..., K, N) → (..., M, N): the K of a must equal the K of b."

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
                fits.append(f"{text} (gives {format_shape(result)})")
    return fits


def matmul_mismatch(a_shape: list[int], b_shape: list[int]) -> tuple[str, str]:
    """(why, fix) for a product whose inner sizes or batch dims disagree."""
    k_a = a_shape[-1]
    k_b = b_shape[-2] if len(b_shape) >= 2 else b_shape[0]
    why = f"{MATMUL_RULE} Here a is {format_shape(a_shape)} and b is {format_shape(b_shape)}"
    if k_a != k_b:
        why += f": a's K is {k_a} but b's K is {k_b}."
    else:
        why += (
            f"; K = {k_a} agrees, but the batch dims {format_shape(a_shape[:-2])} and "
            f"{format_shape(b_shape[:-2])} (everything before the last two) do not broadcast."
        )
        return why, "make the batch dims equal, or 1 on one side so it broadcasts (unsqueeze)"
    fits = _transpose_suggestions(a_shape, b_shape)
    if fits:
        return why, "transpose so the inner sizes meet: " + " or ".join(fits)
    return why, "reshape so a's last size equals b's second-to-last; check the operand order"


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
    why = (
        f"{written} reverses ALL {operand.dim()} dims of {base}: {base} is "
        f"{format_shape(base_shape)}, so {written} is {format_shape(operand.shape)}, not the "
        f"{format_shape(fixed_shape)} a batched matrix product needs (it swaps only the last two "
        "dims and keeps the batch dims in front). torch also warns that .T on a tensor that is "
        "not 2-D is deprecated. " + matmul_mismatch(*shapes)[0].removeprefix(MATMUL_RULE + " ")
    )
    shapes[position] = fixed_shape
    result = meta_matmul(*shapes)
    swapped = f"{base}.mT"
    other = _written(params, 1 - position, "a")
    product = f"{other} @ {swapped}" if position == 1 else f"{swapped} @ {other}"
    if result is not None:
        fix = (
            f"use {swapped} (or {base}.transpose(-2, -1)), which swaps only the last two dims: "
            f"{product} gives {format_shape(result)}"
        )
    else:
        fix = (
            f"use {swapped} (or {base}.transpose(-2, -1)) to swap only the last two dims; "
            f"{product} still needs the inner sizes to agree: "
            + matmul_mismatch(*shapes)[0].removeprefix(MATMUL_RULE + " ")
        )
    return "matmul_shape", ".T reversed every dim of a batch of matrices", why, fix


@_rule(
    r"shapes cannot be multiplied \((?P<m>\d+)x(?P<k_a>\d+) and (?P<k_b>\d+)x(?P<n>\d+)\)",
    r"size mismatch, got input \(\d+\), mat \((?P<m>\d+)x(?P<k_a>\d+)\), vec \((?P<k_b>\d+)\)",
    r"inconsistent tensor size, expected tensor \[(?P<len_a>\d+)\] and src \[(?P<len_b>\d+)\]",
)
def explain_inner_sizes(match, op, tensors, params) -> ErrorParts | None:
    title = "Matrix product: the inner sizes must agree"
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
        why = f"A dot product needs equal lengths; got {found['len_a']} and {found['len_b']}."
        return "matmul_shape", title, why, "slice or pad so both vectors have the same length"
    return None


@_rule(r"must be a matrix")
def explain_mm_needs_matrices(match, op, tensors, params) -> ErrorParts:
    named = ", ".join(f"{format_shape(t.shape)} ({t.dim()}-D)" for t in tensors[:2])
    why = "mm() multiplies exactly two 2-D matrices" + (f"; got {named}." if named else ".")
    fix = "use a @ b (torch.matmul), which also accepts vectors and batches, or reshape to 2-D"
    return "matmul_shape", "mm() works on 2-D matrices only", why, fix


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
        return "matmul_shape", "Matrix product: the inner sizes must agree", why, fix
    why = "bmm() multiplies two batches (B, M, K) @ (B, K, N): both 3-D, same B."
    if shapes:
        why += " Got " + " and ".join(format_shape(s) for s in shapes) + "."
    elif match.lastindex:
        b, k, got_b, got_k = (int(g) for g in match.groups())
        why += f" b should start with [B, K] = [{b}, {k}] but starts with [{got_b}, {got_k}]."
    fix = "use a @ b for other shapes (it broadcasts batch dims); unsqueeze(0) one matrix"
    return "matmul_shape", "bmm() needs two 3-D batches of matrices", why, fix


@_rule(r"need to be at least 1D")
def explain_matmul_of_scalars(match, op, tensors, params) -> ErrorParts:
    why = "matmul needs at least 1-D operands"
    if tensors:
        why += "; got " + " and ".join(f"{t.dim()}-D" for t in tensors[:2])
    fix = "use * to multiply by a 0-d scalar tensor; @ is for vectors and matrices"
    return "matmul_shape", "@ needs vectors or matrices, not 0-d scalars", why + ".", fix


def explain_batch_broadcast(op, tensors, params) -> ErrorParts | None:
    """A broadcast failure inside a product (torch reports the batch dims that disagree)."""
    if op not in MATMUL_OPS or len(tensors) < 2 or min(t.dim() for t in tensors[:2]) < 1:
        return None
    if explained := explain_dot_t_on_batches(tensors, params):
        return explained
    why, fix = matmul_mismatch(list(tensors[0].shape), list(tensors[1].shape))
    return "matmul_shape", "Matrix product: batch dims must broadcast", why, fix
