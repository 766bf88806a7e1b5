"""Finding every tensor a script left in its namespace: top-level names, tensors inside lists,
tuples and dicts, the parameters and buffers of nn.Modules, and the locals of the functions the
script defines (their last call: `demo.images`) — each with a workspace name made from its
access path (`model[0].weight` → `model_0_weight`, `demo.images` → `demo_images`) that is the
same on every run.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field

import numpy as np
import torch

from tensorviz.core.tensors.workbench_actions import numpy_shares_memory

MAX_DEPTH = 3  # containers nested deeper than this are not searched
MAX_TENSORS = 500
PRELOADED = frozenset({"torch", "nn", "F", "np"})


@dataclass
class CapturedTensor:
    base_name: str  # a Python identifier made from the path
    path: str  # how the script reaches it: "w", "xs[0]", "d['w']", "model[0].weight"
    tensor: torch.Tensor
    top_name: str  # the namespace name it was found under
    numpy_array: np.ndarray | None = None
    scope: str = ""  # the function whose local it is ("demo", "Net.forward"); "" at top level

    @property
    def is_top_level(self) -> bool:
        """Bound to a name of the script's own (module) namespace."""
        return not self.scope and self.path == self.top_name

    @property
    def is_function_local(self) -> bool:
        """A local variable of a function, itself a tensor (not inside a container)."""
        return bool(self.scope) and self.path == f"{self.scope}.{self.top_name}"


@dataclass
class ScriptCapture:
    tensors: list[CapturedTensor] = field(default_factory=list)
    truncated: bool = False  # MAX_TENSORS reached
    uncaptured_arrays: list[str] = field(default_factory=list)  # NumPy arrays sharing nothing
    shared_arrays: dict[str, np.ndarray] = field(default_factory=dict)  # name → array sharing
    aliases: list[tuple[str, str]] = field(default_factory=list)  # (path, path it is the same as)
    functions_called: list[str] = field(default_factory=list)  # qualnames whose locals were read


def identifier_from(path: str) -> str:
    """`model[0].weight` → `model_0_weight`; `d['lr rate']` → `d_lr_rate`."""
    out, last = [], "_"
    for char in path:
        char = char if char.isalnum() or char == "_" else "_"
        if char == "_" and last == "_":
            continue
        out.append(char)
        last = char
    name = "".join(out).strip("_") or "t"
    return f"t_{name}" if name[0].isdigit() else name


def _key_text(key) -> str | None:
    if isinstance(key, str):
        return repr(key)
    if isinstance(key, int | bool):
        return str(key)
    return None  # other keys (tuples, tensors) make no useful name


def _module_path(top: str, dotted: str) -> str:
    parts = [top]
    for part in dotted.split("."):
        parts.append(f"[{part}]" if part.isdigit() else f".{part}")
    return "".join(parts)


class _Walker:
    def __init__(self, known: set[int]) -> None:
        self.capture = ScriptCapture()
        self.seen: dict[int, str] = {}  # id(tensor) → the path it was first found at
        self.known = known  # ids of the workspace's own tensors: they never use up the limit
        self.new = 0

    def add(self, path: str, tensor: torch.Tensor, top: str, scope: str = "") -> None:
        if id(tensor) in self.seen:
            if not scope:  # a function's local met again (returned, an argument): no note
                self.capture.aliases.append((path, self.seen[id(tensor)]))
            return
        if id(tensor) not in self.known:
            if self.new >= MAX_TENSORS:
                self.capture.truncated = True
                return
            self.new += 1
        self.seen[id(tensor)] = path
        captured = CapturedTensor(identifier_from(path), path, tensor, top, scope=scope)
        self.capture.tensors.append(captured)

    def walk(self, path: str, value, top: str, depth: int, scope: str = "") -> None:
        if isinstance(value, torch.Tensor):
            self.add(path, value, top, scope)
        elif depth >= MAX_DEPTH:
            return
        elif isinstance(value, torch.nn.Module):
            for dotted, tensor in value.named_parameters():
                self.add(_module_path(path, dotted), tensor, top, scope)
            for dotted, tensor in value.named_buffers():
                if tensor is not None:
                    self.add(_module_path(path, dotted), tensor, top, scope)
        elif isinstance(value, list | tuple):
            for i, item in enumerate(value[: MAX_TENSORS + 1]):
                self.walk(f"{path}[{i}]", item, top, depth + 1, scope)
        elif isinstance(value, dict):
            for key, item in list(value.items())[: MAX_TENSORS + 1]:
                text = _key_text(key)
                if text is not None:
                    self.walk(f"{path}[{text}]", item, top, depth + 1, scope)

    def walk_scope(self, scope: str, names: dict) -> None:
        """A function's locals: tensors first, then containers and modules (as at top level)."""
        items = [(n, v) for n, v in list(names.items()) if _is_user_value(n, v)]
        for name, value in items:
            if isinstance(value, torch.Tensor):
                self.add(f"{scope}.{name}", value, name, scope)
        for name, value in items:
            if not isinstance(value, torch.Tensor):
                self.walk(f"{scope}.{name}", value, name, 0, scope)


def _is_user_value(name: str, value) -> bool:
    return not (
        name.startswith("__")
        or name in PRELOADED
        or isinstance(value, types.ModuleType | types.FunctionType | type)
    )


def capture_namespace(
    namespace: dict, bound_names=None, known=(), function_locals: dict | None = None
) -> ScriptCapture:
    """Every tensor reachable from the namespace; top-level tensors first so `w = model.weight`
    keeps the name `w`, then the locals of functions (`function_locals`: qualname → the locals
    of its last call), so a tensor a function returned keeps the name it is bound to at top
    level. NumPy arrays that share memory with a captured tensor are kept by name and attached
    to it (_attach_arrays); other arrays among `bound_names` (names the script binds) are
    listed as not captured.
    `known` are the workspace's tensors: only tensors new to it count towards MAX_TENSORS."""
    walker = _Walker({id(t) for t in known})
    items = [(n, v) for n, v in namespace.items() if _is_user_value(n, v)]
    for name, value in items:
        if isinstance(value, torch.Tensor):
            walker.add(name, value, name)
    for name, value in items:
        if not isinstance(value, torch.Tensor):
            walker.walk(name, value, name, 0)
    for scope, names in (function_locals or {}).items():
        walker.capture.functions_called.append(scope)
        walker.walk_scope(scope, names)
    capture = walker.capture
    for name, value in items:
        if not isinstance(value, np.ndarray):
            continue
        if any(_linked(value, c.tensor) for c in capture.tensors):
            capture.shared_arrays[name] = value
        elif bound_names is None or name in bound_names:
            capture.uncaptured_arrays.append(name)
    _attach_arrays(capture)
    return capture


def _attach_arrays(capture: ScriptCapture) -> None:
    """Each captured tensor keeps at most one NumPy array for its Workbench entry: the array
    that is the same memory laid out the same way (`A = X.numpy()` goes with X, `C = X.T.numpy()`
    with X.T) before one that merely overlaps its storage."""
    for exact in (True, False):
        for array in capture.shared_arrays.values():
            if any(c.numpy_array is array for c in capture.tensors):
                continue
            owner = next(
                (
                    c
                    for c in capture.tensors
                    if c.numpy_array is None
                    and _linked(array, c.tensor)
                    and (not exact or _same_layout(array, c.tensor))
                ),
                None,
            )
            if owner is not None:
                owner.numpy_array = array


def _same_layout(array: np.ndarray, tensor: torch.Tensor) -> bool:
    return (
        array.__array_interface__["data"][0] == tensor.data_ptr()
        and tuple(array.shape) == tuple(tensor.shape)
        and tuple(array.strides) == tuple(s * tensor.element_size() for s in tensor.stride())
    )


def arrays_sharing(capture: ScriptCapture, tensor: torch.Tensor) -> list[str]:
    """The names of the script's NumPy arrays that read this tensor's memory."""
    return [n for n, a in capture.shared_arrays.items() if _linked(a, tensor)]


def _linked(array: np.ndarray, tensor: torch.Tensor) -> bool:
    try:
        return tensor.layout == torch.strided and numpy_shares_memory(array, tensor)
    except (RuntimeError, TypeError, KeyError):
        return False
