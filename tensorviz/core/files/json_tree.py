"""`tensorviz inspect --json`: the whole tree as JSON — tensor entries (the values of small ones),
plain values, objects (`{"kind": "object", "class": ..., "state": {...}}`), calls (`{"kind":
"call", "callable": ..., "args": [...]}`), notes, metadata and what torch's loaders would do with
the file."""

from __future__ import annotations

import datetime
import math
import pathlib
from typing import TYPE_CHECKING

import numpy as np

from tensorviz.core.files.small_values import small_values, value_json
from tensorviz.core.files.stand_ins import Appended, Arg, Attr, Kwarg

if TYPE_CHECKING:
    from tensorviz.core.files.file_nodes import Node, TensorInfo

MAX_TEXT = 10_000


def inspection_json(inspection) -> dict:
    """The JSON of an inspection; tensors of at most 8 elements are read for their values."""
    values = {key: value_json(tensor) for key, tensor in small_values(inspection).items()}
    return {
        "path": inspection.path,
        "format": inspection.format,
        "safe": inspection.safe,
        "unsafe_globals": list(inspection.unsafe_globals),
        "entries": [tensor_json(node, values) for node in inspection.entries],
        "tree": node_json(inspection.root, values) if inspection.root is not None else None,
        "notes": list(inspection.notes),
        "metadata": inspection.metadata,
        **inspection.safety.to_json(inspection.path),
        "error": inspection.error,
    }


def tensor_json(node: Node, values: dict | None = None) -> dict:
    """A tensor entry; "value": its values when `values` (id(node) → JSON) has them."""
    info: TensorInfo = node.tensor
    data = {
        "key": node.key_text(),
        "state_key": node.state_key,
        "parameter": node.parameter or None,
        "shape": _listed(info.shape),
        "dtype": info.dtype,
        "device": info.device,
        "layout": info.layout,
        "nnz": info.nnz,
        "stride": _listed(info.stride),
        "storage_offset": info.storage_offset,
        "nbytes": info.nbytes,
        "storage_id": info.storage_id,
        "storage_nbytes": info.storage_nbytes,
        "file": node.source or None,
        "problem": info.problem,
    }
    if values is not None and id(node) in values:
        data["value"] = values[id(node)]
    return data


def node_json(node: Node, values: dict | None = None) -> dict:
    kind = node.kind
    if kind == "tensor":
        return {"kind": "tensor", **tensor_json(node, values)}
    if kind in ("value", "missing", "global", "text"):
        data = {"kind": kind, "text": node.value_text}
        if kind == "value":
            data["type"] = _type_name(node.value)
            data["value"] = plain_json(node.value)
        if kind == "text":
            data["value"] = _cut(node.value or "")
        if kind == "global":
            data["name"] = node.class_name
        return data
    if kind in ("list", "tuple"):
        return {"kind": kind, "items": [node_json(c, values) for c in node.children]}
    if kind == "call":
        return {"kind": "call", "callable": node.class_name, "text": node.value_text,
                "danger": node.danger, **_members(node, values)}  # fmt: skip
    if kind in ("object", "module"):
        return {"kind": kind, "class": node.class_name, **_members(node, values)}
    data = {"kind": kind, "items": {c.name: node_json(c, values) for c in node.children}}
    if node.parameter:
        data["parameter"] = node.parameter
    if kind == "file" and node.value_text:
        data["format"] = node.value_text
    return data


def _members(node: Node, values: dict | None) -> dict:
    """An object's or call's children, by what they are: args, kwargs, state, items, appended."""
    parts: dict = {}
    for child in node.children:
        step = child.access[-1] if child.access else None
        if isinstance(step, Arg):
            parts.setdefault("args", []).append(node_json(child, values))
        elif isinstance(step, Kwarg):
            parts.setdefault("kwargs", {})[step.name] = node_json(child, values)
        elif isinstance(step, Attr):
            parts.setdefault("state", {})[child.name] = node_json(child, values)
        elif isinstance(step, Appended):
            parts.setdefault("appended", []).append(node_json(child, values))
        else:
            parts.setdefault("items", {})[child.name] = node_json(child, values)
    if node.kind == "call":
        parts.setdefault("args", [])
    if node.kind in ("object", "module"):
        parts.setdefault("state", {})
    return parts


def plain_json(value):
    """A plain value as JSON can hold it: numbers, text, lists; anything else as its text."""
    if value is None or isinstance(value, bool | int | str):
        return _cut(value) if isinstance(value, str) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, np.generic):
        return plain_json(value.item())
    if isinstance(value, np.ndarray):
        return plain_json(value.tolist()) if value.size <= 1000 else None
    if isinstance(value, list | tuple | set | frozenset | dict):
        if len(value) > 1000 or isinstance(value, dict):
            return None  # summarised in "text"
        try:
            return [plain_json(v) for v in value]
        except RecursionError:
            return None
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, pathlib.PurePath):
        return str(value)
    if isinstance(value, bytes):
        return _cut(repr(value))
    return _cut(repr(value))


def _type_name(value) -> str:
    cls = type(value)
    return (
        cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    )


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + f"… ({len(text):,} long)"


def _listed(values: tuple | None) -> list | None:
    return None if values is None else list(values)
