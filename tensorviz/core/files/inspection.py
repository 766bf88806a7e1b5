"""What is inside a tensor file: a tree of its contents, each tensor's identity, the storages the
entries share and the bytes a saved view wastes. The CLI prints it; the Files area shows it.

`inspect_file` never raises for bad input: the problem is one sentence in `FileInspection.error`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import torch

from tensorviz.core.files.file_errors import TensorFileError, UnsafeFileError
from tensorviz.core.files.file_nodes import Node, StorageGroupInfo, TensorInfo, access_text
from tensorviz.core.files.formats import (
    FORMAT_LABELS,
    detect_format,
    extension_note,
    is_memory_mapped,
    load_file,
)
from tensorviz.core.files.open_requests import path_problem
from tensorviz.core.files.safetensors_format import safetensors_records
from tensorviz.core.files.storages import share_storages, sum_bytes
from tensorviz.core.files.value_reading import (
    FileChangedError,
    mapped_storages,
    match_offsets,
    read_copies,
    stamp_now,
    value_at,
    zip_records,
)

__all__ = ["FileChangedError", "FileInspection", "Node", "StorageGroupInfo", "TensorInfo",
           "access_text", "inspect_file", "tensor_nodes_below", "value_at"]  # fmt: skip


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
    # the object torch.load / numpy gave (tensors on cpu, maybe mmapped: read with tensor_at)
    loaded: object = field(default=None, repr=False)
    file_stamp: tuple | None = None  # (inode, size, mtime) when loaded: mmapped data must match
    # storage address → offset in the file, for data read with plain reads (None: in memory)
    file_offsets: dict[int, int] | None = field(default=None, repr=False)

    @property
    def format_label(self) -> str:
        return FORMAT_LABELS.get(self.format, "unknown")

    def changed_on_disk(self) -> str | None:
        """Why the loaded tensors can no longer be trusted, or None (a quick check before work;
        the reads themselves check again, so a change in between is still caught)."""
        if self.file_stamp is None:
            return None
        name = Path(self.path).name
        try:
            now = stamp_now(self.path)
        except OSError:
            return f"{name} was deleted or moved since it was opened; reopen it to read its data."
        if now != self.file_stamp:
            return f"{name} changed on disk since it was opened; reopen it to read its data."
        return None

    def tensor_at(self, access: tuple) -> torch.Tensor:
        """A copy of one entry in ordinary memory, read from the file with plain reads (never
        through the mmap, see tensor_file_reading). Raises FileChangedError, one sentence."""
        return self.tensors_in_memory([access])[0]

    def tensors_in_memory(self, accesses: list[tuple]) -> list[torch.Tensor]:
        """Copies of these tensors in ordinary memory (no longer backed by the file), keeping the
        storage sharing between them."""
        return read_copies(
            self.path, self.format, self.file_stamp, self.file_offsets, self.loaded, accesses
        )

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
                    "shape": _listed(node.tensor.shape),
                    "dtype": node.tensor.dtype,
                    "layout": node.tensor.layout,
                    "nnz": node.tensor.nnz,
                    "stride": _listed(node.tensor.stride),
                    "storage_offset": node.tensor.storage_offset,
                    "nbytes": node.tensor.nbytes,
                    "storage_id": node.tensor.storage_id,
                    "storage_nbytes": node.tensor.storage_nbytes,
                }
                for node in self.entries
            ],
            "error": self.error,
        }


def _listed(values: tuple | None) -> list | None:
    return None if values is None else list(values)


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
        result.file_stamp = stamp_now(text)  # before loading: a change meanwhile is caught
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
    try:
        _describe(result)
    except Exception as error:  # noqa: BLE001 — never a traceback: one sentence, nothing shown
        result.root, result.entries, result.storages = None, [], []
        result.error = (
            f"The file loaded, but its contents could not be described: {type(error).__name__}: "
            f"{_first_line(error)}"
        )
    return result


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else "no details"


def _describe(result: FileInspection) -> None:
    """The tree, each entry's facts and the storages they share; where mmapped data lies."""
    result.root = build_tree(result.loaded)
    result.entries = [node for node in _walk(result.root) if node.kind == "tensor"]
    result.storages = share_storages(result.entries, lambda a: value_at(result.loaded, a))
    sum_bytes(result.root)
    special = [n for n in result.entries if n.tensor.storage_id is None]
    if special:
        kinds = sorted({n.tensor.layout if n.tensor.device != "meta" else "meta" for n in special})
        many = len(special) > 1
        result.notes.append(
            f"{len(special)} {'entries are' if many else 'entry is a'} {' / '.join(kinds)} "
            f"tensor{'s' if many else ''}: shown with layout, shape, dtype (and nnz for sparse), "
            "but with no plain storage there is no sharing information, values or statistics."
        )
    if is_memory_mapped(result.path, result.format):
        tensors = [value_at(result.loaded, node.access) for node in result.entries]
        records = (
            zip_records(result.path)
            if result.format == "torch-zip"
            else safetensors_records(result.path)
        )
        result.file_offsets = match_offsets(mapped_storages(tensors), records) or {}


def tensor_nodes_below(nodes: list[Node]) -> list[Node]:
    """These tensor nodes, and every tensor below these containers, each once, in tree order."""
    found: dict[int, Node] = {}
    for node in nodes:
        for below in _walk(node):
            if below.tensor is not None:
                found.setdefault(id(below), below)
    return list(found.values())


def _walk(node: Node):
    yield node
    for child in node.children:
        yield from _walk(child)


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
