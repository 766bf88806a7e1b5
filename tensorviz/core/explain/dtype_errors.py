"""Explanations for dtype errors: two operands that disagree, and reductions such as mean() that
need a floating-point tensor. Dtypes are read from torch's message (every spelling torch uses)
and from the real inputs."""

from __future__ import annotations

import re
from collections.abc import Sequence

import torch

from tensorviz.core.explain.rules import (
    ErrorParts,
    Rule,
    both,
    first_name,
    format_shape,
    listing,
    rule_into,
    sentences,
    short_dtype,
)
from tensorviz.core.translation import _

DTYPE_RULES: list[Rule] = []  # in definition order: the first match wins
_rule = rule_into(DTYPE_RULES)

# Every spelling torch uses for a dtype in its messages: ScalarType names, C++ type names,
# legacy tensor-type names and the Python names.
_DTYPE_SPELLINGS = {
    torch.float32: ("float", "float32", "floattensor"),
    torch.float64: ("double", "float64", "doubletensor"),
    torch.float16: ("half", "c10::half", "float16", "halftensor"),
    torch.bfloat16: ("bfloat16", "c10::bfloat16", "bfloat16tensor"),
    torch.int64: ("long", "long int", "long long", "int64", "longtensor"),
    torch.int32: ("int", "int32", "inttensor"),
    torch.int16: ("short", "short int", "int16", "shorttensor"),
    torch.int8: ("char", "signed char", "int8", "chartensor"),
    torch.uint8: ("byte", "unsigned char", "uint8", "bytetensor"),
    torch.bool: ("bool", "booltensor"),
    torch.complex64: ("complexfloat", "c10::complex<float>", "complex64"),
    torch.complex128: ("complexdouble", "c10::complex<double>", "complex128"),
}
_DTYPE_BY_SPELLING = {name: dtype for dtype, names in _DTYPE_SPELLINGS.items() for name in names}

# (expected, found) when torch says which one it wanted; (a, b) when it only says they differ.
_DTYPE_PAIR_PATTERNS = [
    r"expected scalar type (?P<expected>\w+) but found (?P<found>\w+)",
    r"Found dtype (?P<found>\w+) but expected (?P<expected>\w+)",
    r"expected target dtype to be (?P<expected>\w+).*?but got (?P<found>\w+)",
    r"scalar types: (?P<expected>\w+)[^;]*; but got (?P<found>[\w.]+)",
    r"Expected out tensor to have dtype (?P<expected>[\w: ]+?), but got (?P<found>[\w: ]+?) inst",
    r"result type (?P<expected>\w+) can't be cast to the desired output type (?P<found>\w+)",
    r"got (?P<a>\w+) for the destination and (?P<b>\w+) for the source",
    r"Input type \((?P<a>[^)]+)\) and \w+ type \((?P<b>[^)]+)\)",
    r"input dtype \((?P<a>[^)]+)\) does not match weight dtype \((?P<b>[^)]+)\)",
    r"got:? ?(?P<a>[\w:]+(?: int| char)?) (?:!=|and) (?P<b>[\w:]+(?: int| char)?)",
    r"found (?P<a>\w+) and (?P<b>\w+)",
]


def dtype_named(text: str | None) -> torch.dtype | None:
    if not text:
        return None
    name = text.strip().lower().removeprefix("torch.").removeprefix("cuda.")
    return _DTYPE_BY_SPELLING.get(name)


def _dtype_pair(message: str, tensors: Sequence[torch.Tensor]):
    """(expected, found) or (None, None) plus the distinct dtypes involved, in order of mention."""
    for pattern in _DTYPE_PAIR_PATTERNS:
        match = re.search(pattern, message)
        if match:
            named = {key: dtype_named(value) for key, value in match.groupdict().items()}
            involved = [d for d in named.values() if d is not None]
            if len(set(involved)) == 2:
                return named.get("expected"), named.get("found"), involved
    involved = list(dict.fromkeys(t.dtype for t in tensors))
    return None, None, involved


def _conversion(dtype: torch.dtype) -> str:
    methods = {torch.float32: ".float()", torch.float64: ".double()", torch.int64: ".long()"}
    general = f".to({dtype})"
    if dtype not in methods:
        return general
    return _("{method} or {general}").format(method=methods[dtype], general=general)


@_rule(
    r"(?P<op>\w+)\(\): could not infer output dtype\. Input dtype must be either a floating "
    r"point or complex dtype\. Got: (?P<dtype>\w+)",
    r"(?P<op>std) and var only support floating point and complex dtypes",
    r"(?P<op>linalg\.vector_norm): Expected a floating point or complex tensor as input\. "
    r"Got (?P<dtype>\w+)",
)
def explain_float_required(match, op, tensors, params) -> ErrorParts:
    reduction = {"linalg.vector_norm": "norm"}.get(match["op"], match["op"])
    named = dtype_named(match.groupdict().get("dtype"))
    dtype = tensors[0].dtype if tensors else named
    why = _(
        "{reduction}() averages or measures spread, and the answer is rarely a whole number (the "
        "mean of 1 and 2 is 1.5), so torch computes it only for floating-point and complex "
        "tensors instead of guessing a result dtype."
    ).format(reduction=reduction)
    if tensors:
        this = _(
            "This tensor is {dtype} (shape {shape}): integers — what Python ints, arange and "
            "class labels give."
        ).format(dtype=short_dtype(dtype), shape=format_shape(tensors[0].shape))
    elif dtype is not None:
        this = _(
            "This tensor is {dtype}: integers — what Python ints, arange and class labels give."
        ).format(dtype=short_dtype(dtype))
    else:
        this = _("This tensor holds integers — what Python ints, arange and class labels give.")
    name = first_name(params)
    if reduction == "mean":
        fix = _(
            "convert first: {name}.float().mean(), or let mean convert as it reads: "
            "{name}.mean(dtype=torch.float32)"
        ).format(name=name)
    else:
        fix = _("convert first: {name}.float().{reduction}()").format(
            name=name, reduction=reduction
        )
    title = _("{reduction}() needs a floating-point tensor").format(reduction=reduction)
    return "float_required", title, sentences(why, this), fix


@_rule(r"dtype|scalar type|datatype|can't be cast to the desired output|Input type \(")
def explain_dtype(match, op, tensors, params) -> ErrorParts | None:
    if re.search(r"invalid combination of arguments|argument '\w+' \(?.*must be", match.string):
        return None  # a wrong call signature (e.g. dtype="float"), not two clashing dtypes
    expected, found, involved = _dtype_pair(match.string, tensors)
    title = _("The tensors have different dtypes")
    if expected is not None and found is not None:
        why = _("torch expected {expected} here but found {found}.").format(
            expected=short_dtype(expected), found=short_dtype(found)
        )
        target = expected
    elif len(involved) >= 2:
        why = _("This operation mixes {dtypes}.").format(
            dtypes=both(short_dtype(d) for d in involved)
        )
        floating = [d for d in involved if d.is_floating_point]
        target = floating[0] if floating else involved[0]
    else:
        title = _("This operation does not accept this dtype")
        why, target = _("The operands' dtypes do not fit this operation."), None
    inputs = ""
    if tensors:
        described = (f"{format_shape(t.shape)} {short_dtype(t.dtype)}" for t in tensors[:4])
        inputs = _("Inputs: {inputs}.").format(inputs=listing(described))
    agree = _(
        "Most ops do not convert for you; both sides must agree (or be what the op requires)."
    )
    long_ints = ""
    if torch.int64 in involved:
        long_ints = _(
            "int64 (Long) is what Python ints give (torch.tensor([1, 2])) and what class labels "
            "and indices are."
        )
    why = sentences(why, inputs, agree, long_ints)
    if target is None:
        return "dtype_mismatch", title, why, _("convert with .to(dtype) to what the op requires")
    if target == torch.int64 and not (expected is None or expected.is_floating_point):
        fix = _("indices and class labels must be integers: convert them with {conversion}")
        fix = fix.format(conversion=_conversion(target))
    elif match.string.find("desired output type") >= 0:
        fix = _(
            "the in-place target is {found}: use the out-of-place form (x = x + y) or make x "
            "{expected} first with {conversion}"
        ).format(
            found=short_dtype(found),
            expected=short_dtype(expected),
            conversion=_conversion(expected),
        )
    else:
        source = next((short_dtype(d) for d in involved if d != target), None)
        if source is None:
            fix = _("convert the other tensor to {target}: {conversion}")
        else:
            fix = _("convert the {source} tensor to {target}: {conversion}")
        fix = fix.format(source=source, target=short_dtype(target), conversion=_conversion(target))
    return "dtype_mismatch", title, why, fix
