"""What is inside a tensor file: a tree of its contents, each tensor's identity, the storages the
entries share and the bytes a saved view wastes. The CLI prints it; the Files area shows it.

`inspect_file` never raises for bad input: the problem is one sentence in `FileInspection.error`.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import torch

from tensorviz.core.open_requests import path_problem
from tensorviz.core.tensor_file_formats import (
    FORMAT_LABELS,
    TensorFileError,
    UnsafeFileError,
    detect_format,
    extension_note,
    load_file,
)
from tensorviz.core.tensor_summary import SHORT_DTYPE_NAMES, dtype_name


@dataclass(frozen=True)
class TensorInfo:
    shape: tuple[int, ...]
    dtype: str
    device: str
    stride: tuple[int, ...]
    storage_offset: int
    nbytes: int
    storage_nbytes: int
    storage_id: int  # index into FileInspection.storages

    def text(self) -> str:
        shape = ", ".join(map(str, self.shape))
        return f"[{shape}] {SHORT_DTYPE_NAMES.get(self.dtype, self.dtype)}"


@dataclass
class Node:
    """One row of the tree. `access` is the path of keys/indices from the loaded object; a group
    made from a dotted state-dict prefix has no access of its own."""

    name: str
    kind: str  # "dict" | "list" | "tuple" | "group" | "tensor" | "value"
    access: tuple = ()
    tensor: TensorInfo | None = None
    value_text: str = ""
    children: list[Node] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)
    total_bytes: int = 0
    tensor_count: int = 0
    row: int = 0  # position among its parent's children

    def key_text(self) -> str:
        return access_text(self.access)


@dataclass(frozen=True)
class StorageGroupInfo:
    storage_id: int
    nbytes: int
    members: tuple[str, ...]  # entry keys
    used_bytes: int  # bytes of the storage that some member reads

    @property
    def wasted_bytes(self) -> int:
        return self.nbytes - self.used_bytes


@dataclass
class FileInspection:
    path: str
    format: str | None = None
    safe: bool = True
    unsafe_globals: list[str] = field(default_factory=list)
    root: Node | None = None
    entries: list[Node] = field(default_factory=list)  # tensor nodes, in tree order
    storages: list[StorageGroupInfo] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    loaded: object = None  # the object torch.load / numpy gave (tensors on cpu, maybe mmapped)
    file_stamp: tuple | None = None  # (inode, size, mtime) when loaded: mmapped data must match

    @property
    def format_label(self) -> str:
        return FORMAT_LABELS.get(self.format, "unknown")

    def changed_on_disk(self) -> str | None:
        """Why the loaded tensors can no longer be trusted, or None. Reading mmapped data of a
        file truncated since it was opened kills the process (SIGBUS), so check first."""
        if self.file_stamp is None:
            return None
        name = Path(self.path).name
        try:
            now = _stamp(self.path)
        except OSError:
            return f"{name} was deleted or moved since it was opened; reload it to read its data."
        if now != self.file_stamp:
            return f"{name} changed on disk since it was opened; reload it to read its data."
        return None

    def tensor_at(self, access: tuple) -> torch.Tensor:
        if problem := self.changed_on_disk():
            raise FileChangedError(problem)
        return value_at(self.loaded, access)

    def tensors_in_memory(self, accesses: list[tuple]) -> list[torch.Tensor]:
        """Copies of these tensors in ordinary memory (no longer backed by the file), keeping the
        storage sharing between them (one deepcopy call shares its memo across the list)."""
        return copy.deepcopy([self.tensor_at(access) for access in accesses])

    def shared_groups(self) -> list[StorageGroupInfo]:
        return [g for g in self.storages if len(g.members) > 1]

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "format": self.format,
            "safe": self.safe,
            "unsafe_globals": list(self.unsafe_globals),
            "entries": [
                {
                    "key": node.key_text(),
                    "shape": list(node.tensor.shape),
                    "dtype": node.tensor.dtype,
                    "stride": list(node.tensor.stride),
                    "storage_offset": node.tensor.storage_offset,
                    "nbytes": node.tensor.nbytes,
                    "storage_id": node.tensor.storage_id,
                    "storage_nbytes": node.tensor.storage_nbytes,
                }
                for node in self.entries
            ],
            "error": self.error,
        }


def access_text(access: tuple) -> str:
    """The Python subscript that reaches an entry: ['encoder.weight'][0]."""
    return "".join(f"[{step!r}]" for step in access)


def value_at(obj, access: tuple):
    for step in access:
        obj = obj[step]
    return obj


class FileChangedError(OSError):
    """The file under loaded (possibly mmapped) tensors changed or vanished since it was opened."""


def _stamp(path: str) -> tuple:
    info = os.stat(path)
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def inspect_file(path: str | os.PathLike) -> FileInspection:
    text = os.fsdecode(path)
    result = FileInspection(text)
    if problem := path_problem(text):
        result.error = f"Cannot open {text}: {problem.reason}"
        return result
    try:
        result.format = detect_format(text)
        if note := extension_note(text, result.format):
            result.notes.append(note)
        result.loaded, notes = load_file(text, result.format)
        result.notes += notes
    except UnsafeFileError as refusal:
        result.safe = False
        result.unsafe_globals = refusal.unsafe_globals
        result.error = str(refusal)
        return result
    except TensorFileError as problem:
        result.error = str(problem)
        return result
    except (OSError, MemoryError) as error:
        result.error = f"The file could not be read: {error.strerror or type(error).__name__}."
        return result
    result.file_stamp = _stamp(text)
    result.root = build_tree(result.loaded)
    result.entries, result.storages = _share_storages(result.root, result.loaded)
    return result


# --- the tree ------------------------------------------------------------------------------------

MAX_CHILDREN = 10_000  # a list of a million ints is shown as a value, never a million rows


def build_tree(obj) -> Node:
    root = _node("(file)", obj, ())
    _total(root)
    return root


def _node(name: str, obj, access: tuple) -> Node:
    if isinstance(obj, torch.Tensor):
        return Node(name, "tensor", access)
    if isinstance(obj, Mapping) and len(obj) <= MAX_CHILDREN:
        node = Node(name, "dict", access)
        if _is_dotted(obj):
            _group_by_prefix(node, obj, access)
        else:
            for key, value in obj.items():
                _attach(node, _node(str(key), value, (*access, key)))
        return node
    if isinstance(obj, list | tuple) and len(obj) <= MAX_CHILDREN:
        node = Node(name, "list" if isinstance(obj, list) else "tuple", access)
        for index, value in enumerate(obj):
            _attach(node, _node(f"[{index}]", value, (*access, index)))
        return node
    return Node(name, "value", access, value_text=_value_text(obj))


def _value_text(obj) -> str:
    """A short repr that never builds a huge string (a million-item list, a long blob)."""
    if isinstance(obj, Mapping | list | tuple | set):
        return f"{type(obj).__name__} of {len(obj):,} items"
    if isinstance(obj, str | bytes) and len(obj) > 200:
        return repr(obj[:199]) + f"… ({len(obj):,} long)"
    text = repr(obj)
    return text if len(text) <= 200 else text[:199] + "…"


def _attach(parent: Node, child: Node) -> None:
    child.parent = parent
    child.row = len(parent.children)
    parent.children.append(child)


def _is_dotted(obj: Mapping) -> bool:
    keys = list(obj)
    return (
        len(keys) > 1
        and all(isinstance(k, str) for k in keys)
        and any("." in k for k in keys)
        and all(isinstance(v, torch.Tensor) for v in obj.values())
    )


def _group_by_prefix(node: Node, obj: Mapping, access: tuple) -> None:
    """A state dict: 'encoder.layers.0.weight' becomes encoder › layers › 0 › weight."""
    groups: dict[tuple[str, ...], Node] = {(): node}
    for key, value in obj.items():
        parts = key.split(".")
        for depth in range(1, len(parts)):
            prefix = tuple(parts[:depth])
            if prefix not in groups:
                groups[prefix] = Node(parts[depth - 1], "group", access)
                _attach(groups[prefix[:-1]], groups[prefix])
        _attach(groups[tuple(parts[:-1])], _node(parts[-1], value, (*access, key)))


def _total(node: Node) -> None:
    for child in node.children:
        _total(child)
    node.tensor_count = sum(c.tensor_count for c in node.children) + (node.kind == "tensor")


def _share_storages(root: Node, loaded) -> tuple[list[Node], list[StorageGroupInfo]]:
    """Give every tensor node its TensorInfo, grouping tensors by the storage they read."""
    entries = [node for node in _walk(root) if node.kind == "tensor"]
    ids: dict[tuple, int] = {}
    members: dict[int, list[Node]] = {}
    spans: dict[int, list[tuple[int, int]]] = {}
    storage_bytes: dict[int, int] = {}
    for node in entries:
        tensor = value_at(loaded, node.access)
        storage = tensor.untyped_storage()
        nbytes = storage.nbytes()
        key = (str(tensor.device), storage.data_ptr()) if nbytes else ("empty", id(node))
        storage_id = ids.setdefault(key, len(ids))
        element = tensor.element_size()
        node.tensor = TensorInfo(
            shape=tuple(tensor.shape),
            dtype=dtype_name(tensor.dtype),
            device=str(tensor.device),
            stride=tuple(tensor.stride()),
            storage_offset=tensor.storage_offset(),
            nbytes=tensor.numel() * element,
            storage_nbytes=nbytes,
            storage_id=storage_id,
        )
        members.setdefault(storage_id, []).append(node)
        storage_bytes[storage_id] = nbytes
        if tensor.numel():
            extent = 1 + sum(
                (n - 1) * abs(st) for n, st in zip(tensor.shape, tensor.stride(), strict=True)
            )
            start = tensor.storage_offset() * element
            spans.setdefault(storage_id, []).append((start, start + extent * element))
    _sum_bytes(root)
    return entries, [
        StorageGroupInfo(
            sid,
            storage_bytes[sid],
            tuple(n.key_text() for n in nodes),
            min(storage_bytes[sid], _union_length(spans.get(sid, []))),
        )
        for sid, nodes in members.items()
    ]


def _walk(node: Node):
    yield node
    for child in node.children:
        yield from _walk(child)


def _sum_bytes(node: Node) -> dict[int, int]:
    """Bytes a subtree stores on disk: each storage once, however many entries read it.
    Returns the storages below `node` (id → bytes)."""
    if node.kind == "tensor":
        found = {node.tensor.storage_id: node.tensor.storage_nbytes}
    else:
        found = {}
        for child in node.children:
            found.update(_sum_bytes(child))
    node.total_bytes = sum(found.values())
    return found


def _union_length(spans: list[tuple[int, int]]) -> int:
    total, end = 0, None
    for start, stop in sorted(spans):
        if end is None or start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total
