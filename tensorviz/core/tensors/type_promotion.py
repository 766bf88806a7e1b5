"""Why an arithmetic result has the dtype it has: torch's type promotion, told from the real
operands and confirmed with torch.result_type."""

from __future__ import annotations

import torch

from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.translation import _, pgettext


def _category(dtype: torch.dtype) -> int:
    if dtype == torch.bool:
        return 0
    if dtype.is_complex:
        return 3
    return 2 if dtype.is_floating_point else 1


def _category_name(category: int) -> str:
    return (
        pgettext("kind", "bool"),
        pgettext("kind", "integer"),
        pgettext("kind", "floating point"),
        pgettext("kind", "complex"),
    )[category]


def _describe(name: str, operand) -> str:
    if isinstance(operand, torch.Tensor):
        dtype = dtype_name(operand.dtype)
        if operand.dim() == 0:
            return _("{name} is a 0-d tensor of {dtype}").format(name=name, dtype=dtype)
        return _("{name} is a tensor of {dtype}").format(name=name, dtype=dtype)
    return _("{value} is a Python {type}").format(value=repr(operand), type=type(operand).__name__)


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
            return _(
                "Type promotion: / is true division, so two integers give a float: {dtype} "
                "(torch's default dtype). Use // or torch.div(..., rounding_mode='floor') to keep "
                "integers."
            ).format(dtype=out)
    expected = torch.result_type(x, other)
    said = {"first": _describe(x_name, x), "second": _describe(other_name, other), "dtype": out}
    if expected != result.dtype:  # torch's own op chose otherwise (e.g. a kernel's rule)
        return _("Type promotion: {first} and {second} → {dtype}.").format(**said)
    x_category = _category(x.dtype)
    other_category = (
        _category(other.dtype)
        if isinstance(other, torch.Tensor)
        else _category(torch.tensor(other).dtype)
    )
    if x_category != other_category:
        kind = _category_name(max(x_category, other_category))
        if not isinstance(other, torch.Tensor) and isinstance(other, float):
            return _(
                "Type promotion: {first} and {second} → {dtype}: the higher kind wins (bool < "
                "integer < floating point < complex): {kind}, and a Python float takes torch's "
                "default dtype, {dtype}."
            ).format(kind=kind, **said)
        return _(
            "Type promotion: {first} and {second} → {dtype}: the higher kind wins (bool < "
            "integer < floating point < complex): {kind}."
        ).format(kind=kind, **said)
    if isinstance(other, torch.Tensor) and other.dim() > 0 and x.dim() > 0:
        return _(
            "Type promotion: {first} and {second} → {dtype}: within one kind the wider dtype wins."
        ).format(**said)
    return _(
        "Type promotion: {first} and {second} → {dtype}: a 0-d tensor or Python number does not "
        "widen a tensor of the same kind."
    ).format(**said)
