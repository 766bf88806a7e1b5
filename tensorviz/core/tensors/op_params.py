"""Parameters typed by the user in forms, validated before torch is ever called.

Each parameter is described by a ParamSpec; `parse_param` turns the text from a form into a Python
value or raises ParamError with one sentence a learner can act on. Literals are read with
`ast.literal_eval` (no code runs); tensor references are names looked up in the workspace.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

import torch

from tensorviz.core.translation import _

DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "int16": torch.int16,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "bool": torch.bool,
    "complex64": torch.complex64,
}


class ParamError(ValueError):
    """A parameter the user typed cannot be used; the message says which and why."""


@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: str  # int, optional_int, ints, float, number, bool, dtype, device, literal, tensor,
    #            index_tensor (int64 only), tensors, tensor_or_number, sizes, text, choice
    default: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()


MAX_LITERAL_CHARS = 100_000


def _literal(spec: ParamSpec, text: str):
    if len(text) > MAX_LITERAL_CHARS:
        raise ParamError(
            _(
                "{name}: {count} characters is too long to type in; load big data from a file "
                "or build it with arange/rand and reshape."
            ).format(name=spec.name, count=f"{len(text):,}")
        )
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ParamError(
            _("{name}: '{text}' is not a Python literal.").format(name=spec.name, text=text)
        ) from None


def _int(spec: ParamSpec, text: str) -> int:
    value = _literal(spec, text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParamError(
            _("{name} must be a whole number, got '{text}'.").format(name=spec.name, text=text)
        )
    return value


def _ints(spec: ParamSpec, text: str) -> tuple[int, ...]:
    stripped = text.strip().strip("()[]")
    if not stripped:
        return ()
    value = _literal(spec, f"({stripped},)")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ParamError(
            _("{name} must be whole numbers separated by commas, got '{text}'.").format(
                name=spec.name, text=text
            )
        )
    return tuple(value)


def _number(spec: ParamSpec, text: str):
    value = _literal(spec, text)
    if isinstance(value, bool) or not isinstance(value, (int, float, complex)):
        raise ParamError(
            _("{name} must be a number, got '{text}'.").format(name=spec.name, text=text)
        )
    return value


def _tensor(spec: ParamSpec, text: str, tensors: Mapping[str, torch.Tensor]) -> torch.Tensor:
    if text not in tensors:
        known = ", ".join(tensors) or _("none yet")
        raise ParamError(
            _("{name}: there is no tensor named '{text}' (workspace: {known}).").format(
                name=spec.name, text=text, known=known
            )
        )
    return tensors[text]


TENSOR_KINDS = ("tensor", "index_tensor")  # a parameter that names one workspace tensor


def tensor_choices(tensors: Mapping[str, torch.Tensor]) -> dict[str, list[str]]:
    """The workspace names a form may offer for each kind of tensor parameter: any tensor, or
    only int64 ones where torch reads positions (gather/scatter take nothing else)."""
    return {
        "tensor": list(tensors),
        "index_tensor": [n for n, t in tensors.items() if t.dtype == torch.int64],
    }


def _index_tensor(spec: ParamSpec, text: str, tensors) -> torch.Tensor:
    tensor = _tensor(spec, text, tensors)
    if tensor.dtype != torch.int64:
        dtype = str(tensor.dtype).removeprefix("torch.")
        raise ParamError(
            _(
                "{name}: {text} is {dtype}, but torch reads positions from int64 only; use "
                "{text}.long() or torch.tensor([[0, 1]]) (Python ints are int64)."
            ).format(name=spec.name, text=text, dtype=dtype)
        )
    return tensor


def tensor_names(text: str) -> list[str]:
    """Workspace names listed as "a, b" or "[a, b]"."""
    return [n.strip() for n in text.replace("[", "").replace("]", "").split(",") if n.strip()]


def parse_param(spec: ParamSpec, raw: str, tensors: Mapping[str, torch.Tensor] = {}):  # noqa: B006
    """The value of one parameter from the text a user typed (empty text means the default)."""
    text = (raw if raw is not None else "").strip() or spec.default
    kind = spec.kind
    if kind in ("optional_int",) and text in ("", "None"):
        return None
    if not text and kind not in ("ints", "text", "tensors"):
        raise ParamError(_("{name} is required.").format(name=spec.name))
    if kind in ("int", "optional_int"):
        return _int(spec, text)
    if kind == "ints":
        return _ints(spec, text)
    if kind == "sizes":  # one int (split size) or a list of ints (split sizes)
        return _ints(spec, text) if ("," in text or "[" in text) else _int(spec, text)
    if kind in ("float", "number"):
        return _number(spec, text)
    if kind == "bool":
        if text.lower() in ("true", "1", "yes"):
            return True
        if text.lower() in ("false", "0", "no"):
            return False
        raise ParamError(
            _("{name} must be True or False, got '{text}'.").format(name=spec.name, text=text)
        )
    if kind == "dtype":
        if text not in DTYPES:
            raise ParamError(
                _("{name}: unknown dtype '{text}'; choose one of {choices}.").format(
                    name=spec.name, text=text, choices=", ".join(DTYPES)
                )
            )
        return DTYPES[text]
    if kind == "device":
        try:
            device = torch.device(text)
        except RuntimeError:
            raise ParamError(
                _("{name}: '{text}' is not a device name (cpu, cuda:0, mps).").format(
                    name=spec.name, text=text
                )
            ) from None
        if device.type == "meta":  # shapes without data: nothing to look at
            raise ParamError(
                _("{name}: choose a device that holds data (cpu, cuda:0, mps).").format(
                    name=spec.name
                )
            )
        return device
    if kind == "choice":
        if text not in spec.choices:
            raise ParamError(
                _("{name} must be one of {choices}.").format(
                    name=spec.name, choices=", ".join(spec.choices)
                )
            )
        return text
    if kind == "literal":
        return _literal(spec, text)
    if kind == "tensor":
        return _tensor(spec, text, tensors)
    if kind == "index_tensor":
        return _index_tensor(spec, text, tensors)
    if kind == "tensors":
        names = tensor_names(text)
        if not names:
            raise ParamError(_("{name}: name at least one tensor.").format(name=spec.name))
        return [_tensor(spec, n, tensors) for n in names]
    if kind == "tensor_or_number":
        return tensors[text] if text in tensors else _number(spec, text)
    return text


def format_param(spec: ParamSpec, value, raw: str) -> str:
    """How a parsed parameter reads in the equivalent torch code shown to the user."""
    if value is None:
        return "None"
    if spec.kind in ("ints", "sizes") and isinstance(value, tuple):
        return ", ".join(map(str, value))
    if spec.kind == "dtype":
        return str(value)
    if spec.kind == "device":
        return repr(str(value))
    if spec.kind == "tensors":
        return "[" + ", ".join(tensor_names(raw)) + "]"
    if spec.kind in (*TENSOR_KINDS, "tensor_or_number", "text", "literal"):
        return (raw or spec.default).strip()
    return repr(value)
