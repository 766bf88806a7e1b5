"""Turn a torch exception into something a learner can act on.

Errors are data (ARCHITECTURE rule 7): the UI and the CLI show an ``ExplainedError`` built here
from torch's own message (kept verbatim) plus the tensors the user passed in. Classification
matches torch's real message text; the tensors supply the actual sizes, strides, dtypes and
devices. Explaining must never fail, so any problem falls back to kind "unknown".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import torch

from tensorviz.core.explain.shape_errors import (
    SHAPE_RULES,
    ErrorParts,
    Explainer,
    format_shape,
)
from tensorviz.core.explain.usage_errors import USAGE_RULES


@dataclass(frozen=True)
class ExplainedError:
    kind: str
    title: str
    torch_message: str
    explanation: str
    fix: str

    def text(self) -> str:
        """Everything as plain text, for the CLI and the clipboard (no "torch says" for the
        app's own findings, which have no torch message)."""
        said = f"torch says: {self.torch_message}\n\n" if self.torch_message else ""
        return f"{self.title}\n\n{said}Why: {self.explanation}\n\nFix: {self.fix}"


UNKNOWN_TITLE = "torch refused this operation"
UNKNOWN_EXPLANATION = "torch refused this operation; its message above says why."
UNKNOWN_FIX = (
    "Read the argument torch names in its message and compare the shapes, dtypes and devices "
    "of the inputs; simplify the expression step by step until the failing part is isolated."
)

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


def _dtype_named(text: str | None) -> torch.dtype | None:
    if not text:
        return None
    name = text.strip().lower().removeprefix("torch.").removeprefix("cuda.")
    return _DTYPE_BY_SPELLING.get(name)


def _dtype_pair(message: str, tensors: Sequence[torch.Tensor]):
    """(expected, found) or (None, None) plus the distinct dtypes involved, in order of mention."""
    for pattern in _DTYPE_PAIR_PATTERNS:
        match = re.search(pattern, message)
        if match:
            named = {key: _dtype_named(value) for key, value in match.groupdict().items()}
            involved = [d for d in named.values() if d is not None]
            if len(set(involved)) == 2:
                return named.get("expected"), named.get("found"), involved
    involved = list(dict.fromkeys(t.dtype for t in tensors))
    return None, None, involved


def _short(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _conversion(dtype: torch.dtype) -> str:
    methods = {torch.float32: ".float()", torch.float64: ".double()", torch.int64: ".long()"}
    general = f".to({dtype})"
    return f"{methods[dtype]} or {general}" if dtype in methods else general


def explain_dtype(match, op, tensors, params) -> ErrorParts | None:
    if re.search(r"invalid combination of arguments|argument '\w+' \(?.*must be", match.string):
        return None  # a wrong call signature (e.g. dtype="float"), not two clashing dtypes
    expected, found, involved = _dtype_pair(match.string, tensors)
    title = "The tensors have different dtypes"
    if expected is not None and found is not None:
        why = f"torch expected {_short(expected)} here but found {_short(found)}."
        target = expected
    elif len(involved) >= 2:
        why = f"This operation mixes {' and '.join(_short(d) for d in involved)}."
        floating = [d for d in involved if d.is_floating_point]
        target = floating[0] if floating else involved[0]
    else:
        why, target = "The operands' dtypes do not fit this operation.", None
    if tensors:
        why += (
            " Inputs: "
            + ", ".join(f"{format_shape(t.shape)} {_short(t.dtype)}" for t in tensors[:4])
            + "."
        )
    why += " Most ops do not convert for you; both sides must agree (or be what the op requires)."
    if torch.int64 in involved:
        why += (
            " int64 (Long) is what Python ints give (torch.tensor([1, 2])) and what class "
            "labels and indices are."
        )
    if target is None:
        return "dtype_mismatch", title, why, "convert with .to(dtype) so the dtypes agree"
    if target == torch.int64 and not (expected is None or expected.is_floating_point):
        fix = f"indices and class labels must be integers: convert them with {_conversion(target)}"
    else:
        source = next((_short(d) for d in involved if d != target), "other")
        fix = f"convert the {source} tensor to {_short(target)}: {_conversion(target)}"
        if match.string.find("desired output type") >= 0:
            fix = (
                f"the in-place target is {_short(found)}: use the out-of-place form "
                f"(x = x + y) or make x {_short(expected)} first with {_conversion(expected)}"
            )
    return "dtype_mismatch", title, why, fix


def explain_device(match, op, tensors, params) -> ErrorParts | None:
    message = match.string
    types = re.search(r"Input type \(([^)]*)\) and \w+ type \(([^)]*)\)", message)
    if types and ("cuda" in types[1]) == ("cuda" in types[2]):
        return None  # same device, so this is a dtype complaint
    devices = list(dict.fromkeys(str(t.device) for t in tensors))
    if len(devices) < 2:
        found = re.search(r"at least two devices, (\S+) and (\S+?)!", message) or re.search(
            r"is on (\S+?), different from other tensors on (\S+?)(?:\s|$)", message
        )
        devices = list(found.groups()) if found else (["cuda", "cpu"] if types else [])
    where = " and ".join(devices) if devices else "different devices"
    why = (
        f"The inputs live on {where}. A GPU computes only on its own memory and torch never "
        "moves data silently, because every CPU↔GPU copy costs time."
    )
    fix = (
        "pick one device = torch.device('cuda' if torch.cuda.is_available() else 'cpu') and "
        "move model and data there: model.to(device), x = x.to(device)"
    )
    return "device_mismatch", "All tensors in one operation must be on the same device", why, fix


def _first_shape(tensors: Sequence[torch.Tensor]) -> str:
    return f" (shape {format_shape(tensors[0].shape)})" if tensors else ""


def explain_inplace_leaf(match, op, tensors, params) -> ErrorParts:
    name = op or "an in-place op"
    why = (
        f"The tensor{_first_shape(tensors)} is a leaf: you created it with requires_grad=True, "
        "so autograd computes gradients with respect to it. Changing it in place with "
        f"{name} would alter the value the graph was built from, so torch refuses."
    )
    fix = (
        "for a parameter update, do it outside autograd: with torch.no_grad(): w -= lr * w.grad; "
        "otherwise write out-of-place (y = x + 1) or change a copy: y = x.clone(); y.add_(1)"
    )
    return "inplace_leaf", "A leaf tensor that requires grad cannot be changed in place", why, fix


def explain_expanded_write(match, op, tensors, params) -> ErrorParts:
    why = (
        "Some elements of the tensor you write into share one memory location (stride 0, as "
        "made by expand() or broadcasting), so one write would land in many places."
    )
    if tensors:
        x = tensors[0]
        zero = [f"dim {d} (size {x.shape[d]})" for d in range(x.dim()) if x.stride(d) == 0]
        distinct = 1
        for d in range(x.dim()):
            distinct *= x.shape[d] if x.stride(d) else 1
        why += (
            f" Shape {format_shape(x.shape)}, strides {format_shape(x.stride())}: stride 0 at "
            f"{', '.join(zero) or 'no dim'}; its {x.numel()} elements use {distinct} "
            "memory locations."
        )
    fix = "x = x.clone() (or x.contiguous()) first, or build it with repeat() instead of expand()"
    return "expanded_write", "Cannot write into an expanded (stride-0) tensor", why, fix


def explain_freed_graph(match, op, tensors, params) -> ErrorParts:
    why = (
        "The first backward() walked the graph and then freed the intermediate values it had "
        "saved (to save memory). A second backward() through the same graph needs them again."
    )
    fix = (
        "rebuild the graph by recomputing the forward pass each step; if you truly need two "
        "passes call the first as loss.backward(retain_graph=True); detach() tensors carried "
        "over from a previous step (e.g. an RNN's hidden state)"
    )
    return "backward_freed_graph", "The graph was already used by backward() and freed", why, fix


def explain_non_scalar_backward(match, op, tensors, params) -> ErrorParts:
    count = (
        f" has {tensors[0].numel()} elements{_first_shape(tensors)}" if tensors else " is not 0-d"
    )
    why = (
        f"backward() with no argument computes d(output)/d(leaves) for one number; this output"
        f"{count}, so torch does not know how to weight its elements."
    )
    fix = (
        "reduce to a scalar first: y.sum().backward() or y.mean().backward(); or pass the weights "
        "yourself: y.backward(gradient=torch.ones_like(y))"
    )
    return "non_scalar_backward", "backward() without arguments needs a scalar", why, fix


def explain_no_grad(match, op, tensors, params) -> ErrorParts:
    why = (
        "The tensor you call backward() on is not connected to any tensor with requires_grad="
        "True: no input asked for gradients, or it was computed under torch.no_grad(), "
        "detached, or passed through a non-differentiable step (argmax, .item(), int casts)."
    )
    if tensors:
        y = tensors[0]
        why += f" Here requires_grad={y.requires_grad}, grad_fn={y.grad_fn}."
    fix = (
        "create the parameters with requires_grad=True (torch.randn(3, requires_grad=True)) "
        "and compute the loss outside torch.no_grad() without detach()"
    )
    return "backward_no_grad", "Nothing in this computation requires grad", why, fix


def explain_integer_requires_grad(match, op, tensors, params) -> ErrorParts:
    why = (
        "Gradients are slopes of smooth functions, so only floating-point (and complex) tensors "
        "can require grad. Integer tensors — Python ints become int64, arange of ints too — "
        "cannot."
    )
    fix = (
        "make the tensor float first: torch.arange(5.0), torch.tensor([1.0, 2.0]), or "
        "x.float().requires_grad_(); or pick dtype float32 with requires_grad"
    )
    return "integer_requires_grad", "Only floating-point tensors can require grad", why, fix


def _readable_bytes(count: int) -> str:
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024:
            return f"{count} bytes" if unit == "bytes" else f"{size:.2f} {unit} ({count} bytes)"
        size /= 1024
    return f"{size:.2f} PiB ({count} bytes)"


def explain_out_of_memory(match, op, tensors, params) -> ErrorParts:
    asked = re.search(r"Tried to allocate ([\d.]+ \w+)|tried to allocate (\d+) bytes", match.string)
    amount = None
    if asked:
        amount = asked[1] or _readable_bytes(int(asked[2]))
    why = (
        "The device ran out of memory. Memory holds the parameters, their gradients, the "
        "optimizer state and every activation saved for backward, which grows with batch size."
    )
    if amount:
        why += f" This allocation alone asked for {amount}."
    fix = (
        "use a smaller batch size; wrap evaluation in with torch.no_grad(): so no activations "
        "are kept; del tensors you no longer need (then torch.cuda.empty_cache()); log "
        "loss.item() instead of loss so old graphs are freed"
    )
    return "out_of_memory", "Out of memory", why, fix


_RULES: list[tuple[str, Explainer]] = [
    (r"out of memory|can't allocate memory", explain_out_of_memory),
    (r"same device|Input type \([^)]*\) and \w+ type \(", explain_device),
    (
        r"leaf Variable that requires grad is being used in an in-place operation",
        explain_inplace_leaf,
    ),
    (
        r"more than one element of the written-to tensor refers to a single memory location",
        explain_expanded_write,
    ),
    (r"backward through the graph a second time", explain_freed_graph),
    (r"grad can be implicitly created only for scalar outputs", explain_non_scalar_backward),
    (r"does not require grad and does not have a grad_fn", explain_no_grad),
    (
        r"Only Tensors of floating point( and complex)? dtype can require gradients",
        explain_integer_requires_grad,
    ),
    *SHAPE_RULES,
    *USAGE_RULES,
    (
        r"dtype|scalar type|datatype|can't be cast to the desired output|Input type \(",
        explain_dtype,
    ),
]
_COMPILED_RULES = [(re.compile(pattern, re.DOTALL), explainer) for pattern, explainer in _RULES]


def _message_of(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:  # noqa: BLE001 — a broken __str__ must not break the explainer
        return repr(error)


def explain_error(
    error: BaseException,
    op: str | None = None,
    tensors: Sequence[torch.Tensor] = (),
    params: Mapping[str, object] | None = None,
    names: Sequence[str] = (),
) -> ExplainedError:
    """Classify ``error`` from torch's message and explain it with the real inputs. Never raises.

    ``names`` are the workspace names of ``tensors``, so a fix can say ``x_t.reshape(-1)``."""
    message = _message_of(error)
    try:
        inputs = [t for t in tensors if isinstance(t, torch.Tensor)]
        options = {**dict(params or {}), "input_names": tuple(names)}
        if isinstance(error, torch.OutOfMemoryError):
            whole_message = re.search(r".*", message, re.DOTALL)
            return _build(message, explain_out_of_memory(whole_message, op, inputs, options))
        for pattern, explainer in _COMPILED_RULES:
            match = pattern.search(message)
            if match:
                parts = explainer(match, op, inputs, options)
                if parts is not None:
                    return _build(message, parts)
    except Exception:  # noqa: BLE001 — explaining is best effort; torch's message always survives
        pass
    return ExplainedError("unknown", UNKNOWN_TITLE, message, UNKNOWN_EXPLANATION, UNKNOWN_FIX)


def _build(message: str, parts: ErrorParts) -> ExplainedError:
    kind, title, explanation, fix = parts
    return ExplainedError(kind, title, message, explanation, fix)
