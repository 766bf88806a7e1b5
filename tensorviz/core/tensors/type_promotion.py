"""Why an arithmetic result has the dtype it has: torch's type promotion, told from the real
operands and confirmed with torch.result_type."""

from __future__ import annotations

import torch

from tensorviz.core.tensors.identity import dtype_name

_CATEGORIES = ("bool", "integer", "floating point", "complex")


def _category(dtype: torch.dtype) -> int:
    if dtype == torch.bool:
        return 0
    if dtype.is_complex:
        return 3
    return 2 if dtype.is_floating_point else 1


def _describe(name: str, operand) -> str:
    if isinstance(operand, torch.Tensor):
        rank = "a 0-d tensor" if operand.dim() == 0 else "a tensor"
        return f"{name} is {rank} of {dtype_name(operand.dtype)}"
    return f"{operand!r} is a Python {type(operand).__name__}"


def promotion_note(op: str, x: torch.Tensor, other, result: torch.Tensor, names=("x", "")) -> str:
    """A sentence when the result's dtype is not simply the dtype of every operand, else ""."""
    if not isinstance(x, torch.Tensor) or not isinstance(result, torch.Tensor):
        return ""
    dtypes = {x.dtype, result.dtype} | ({other.dtype} if isinstance(other, torch.Tensor) else set())
    if len(dtypes) == 1:
        return ""
    x_name, other_name = names[0], names[1] or repr(other)
    out = dtype_name(result.dtype)
    if op == "div" and not x.dtype.is_floating_point and result.dtype.is_floating_point:
        if not isinstance(other, torch.Tensor) or not other.dtype.is_floating_point:
            return (
                f"Type promotion: / is true division, so two integers give a float: {out} "
                f"(torch's default dtype). Use // or torch.div(..., rounding_mode='floor') to "
                "keep integers."
            )
    expected = torch.result_type(x, other)
    sentence = f"Type promotion: {_describe(x_name, x)} and {_describe(other_name, other)} → {out}"
    if expected != result.dtype:  # torch's own op chose otherwise (e.g. a kernel's rule)
        return f"{sentence}."
    x_category = _category(x.dtype)
    other_category = (
        _category(other.dtype)
        if isinstance(other, torch.Tensor)
        else _category(torch.tensor(other).dtype)
    )
    if x_category != other_category:
        winner = _CATEGORIES[max(x_category, other_category)]
        why = f"the higher kind wins (bool < integer < floating point < complex): {winner}"
        if not isinstance(other, torch.Tensor) and isinstance(other, float):
            why += f", and a Python float takes torch's default dtype, {out}"
        return f"{sentence}: {why}."
    if isinstance(other, torch.Tensor) and other.dim() > 0 and x.dim() > 0:
        return f"{sentence}: within one kind the wider dtype wins."
    return f"{sentence}: a 0-d tensor or Python number does not widen a tensor of the same kind."
