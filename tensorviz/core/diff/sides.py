"""One side of a comparison: the tensors and plain values of a file, or of one entry of it, as
dotted keys with their facts and a way to read their values.

Built only from the Files area's reader API (`inspect_file` → `FileInspection`: the Node tree,
each entry's TensorInfo, `tensor_at` for values), so whatever that reader learns to open —
folders, shards, new formats — can be compared without a change here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import torch

from tensorviz.core.files.formats import format_label
from tensorviz.core.files.inspection import (
    FileInspection,
    Node,
    ReadBuffer,
    TensorInfo,
    inspect_file,
)
from tensorviz.core.files.state_keys import METADATA
from tensorviz.core.files.tree import value_text
from tensorviz.core.translation import _


class SideError(Exception):
    """A side cannot be compared (the file does not open): one sentence."""


@dataclass(frozen=True)
class TensorEntry:
    key: str  # its state-dict key, below the side's root: "encoder.layers.0.weight"
    file_key: str  # as the file has it: "['state_dict']['encoder.layers.0.weight']"
    info: TensorInfo
    read: Callable[[], torch.Tensor] = field(repr=False, compare=False)  # a copy in memory
    # the same copy read into a ReadBuffer's memory (valid until its next read); None: use read
    read_into: Callable[[ReadBuffer], torch.Tensor] | None = field(
        default=None, repr=False, compare=False
    )
    # (shape, dtype, blocks of `elements` read into the buffer) or None where it cannot stream
    blocks: Callable[[int, ReadBuffer], tuple | None] | None = field(
        default=None, repr=False, compare=False
    )
    source: str = ""  # the file it is stored in, in a folder or a sharded checkpoint
    optimizer_state: bool = False  # an optimizer's moment or step, not a weight
    parameter: str = ""  # an optimizer's state: the parameter it belongs to, where proven


@dataclass(frozen=True)
class ValueEntry:
    key: str
    file_key: str
    text: str  # the Files area's short repr of the value
    compared: str = ""  # what is compared: the same repr with its words in English
    # beside the checkpoint, not in it: a folder's JSON file ("config.json"), a file's metadata
    # ("__metadata__"); compared only with the other side's same file
    beside: str = ""

    def same_as(self, other: ValueEntry) -> bool:
        return (self.compared or self.text) == (other.compared or other.text)


@dataclass
class ComparedSide:
    label: str  # what the user picked: "ft.pt" or "ft.pt › encoder"
    path: str
    format: str | None  # the reader's format key ("torch-zip", "safetensors", …)
    tensors: dict[str, TensorEntry]  # in the file's order
    values: dict[str, ValueEntry]
    single: bool = False  # the side is one picked tensor: it pairs with the other, whatever names
    calls: tuple[str, ...] = ()  # what a plain torch.load of the file would call (never called)

    @property
    def format_label(self) -> str:
        """The format in words, in the language in force when shown."""
        return format_label(self.format)

    def storage_of(self, key: str) -> int | None:
        """The storage the entry reads (entries that share one have the same id)."""
        return self.tensors[key].info.storage_id


def side_of_file(path: str | os.PathLike) -> ComparedSide:
    """The whole file as one side. Raises SideError with the reader's sentence."""
    inspection = inspect_file(path)
    if inspection.error is not None:
        raise SideError(inspection.error)
    return side_of_inspection(inspection)


def side_of_inspection(inspection: FileInspection, node: Node | None = None) -> ComparedSide:
    """A side made of `node` (a tensor, a container, a group of a state dict) and everything
    below it; the whole file when node is None."""
    if inspection.error is not None or inspection.root is None:
        raise SideError(
            inspection.error or _("{path} has no contents to compare.").format(path=inspection.path)
        )
    root = inspection.root if node is None else node
    name = Path(inspection.path).name
    label = name if root is inspection.root else f"{name} › {node_path(root)}"
    tensors: dict[str, TensorEntry] = {}
    values: dict[str, ValueEntry] = {}
    if root.kind == "tensor":
        key = root.name if root is not inspection.root else name
        tensors[key] = _tensor_entry(inspection, root, key)
    else:
        whole = root is inspection.root
        for leaf, path in _leaves(root, []):
            key = leaf.state_key if whole and leaf.state_key else path
            if key in tensors or key in values:  # {"a.b": …} beside {"a": {"b": …}}
                key = leaf.key_text()
            if leaf.kind == "tensor":
                tensors[key] = _tensor_entry(inspection, leaf, key)
            else:
                values[key] = ValueEntry(key, leaf.key_text(), _value_text(leaf),
                                         _value_text(leaf, translated=False),
                                         _beside(inspection, leaf, key))  # fmt: skip
    calls = tuple(dict.fromkeys(call.callable_name for call in inspection.calls))
    return ComparedSide(label, inspection.path, inspection.format, tensors, values,
                        single=root.kind == "tensor", calls=calls)  # fmt: skip


def node_path(node: Node) -> str:
    """The dotted path of a node from the file's root ("state_dict.encoder")."""
    parts = []
    while node.parent is not None:
        parts.append(_part(node))
        node = node.parent
    return ".".join(reversed(parts)) or node.name


def _part(node: Node) -> str:
    name = node.name
    return name[1:-1] if name.startswith("[") and name.endswith("]") else name


def _leaves(node: Node, path: list[str]):
    """(leaf, dotted key) below node: tensors, plain values and empty containers."""
    for child in node.children:
        child_path = [*path, _part(child)]
        if child.kind in ("tensor", "value") or not child.children:
            yield child, ".".join(child_path)
        else:
            yield from _leaves(child, child_path)


def _value_text(node: Node, translated: bool = True) -> str:
    if node.kind != "value":
        return _("empty {kind}").format(kind=node.kind) if translated else f"empty {node.kind}"
    if translated or node.value is None:
        return node.value_text
    return value_text(node.value, translated=False)


def _tensor_entry(inspection: FileInspection, node: Node, key: str) -> TensorEntry:
    read = partial(inspection.tensor_at, node.access)
    blocks = partial(inspection.tensor_blocks, node.access)
    return TensorEntry(key, node.key_text(), node.tensor, read, read, blocks, node.source,
                       node.optimizer_state, node.parameter)  # fmt: skip


def _beside(inspection: FileInspection, leaf: Node, key: str) -> str:
    """The file beside the checkpoint a plain value comes from (a folder's config.json), or
    "__metadata__" for a file's header metadata; "" for the checkpoint's own values."""
    part = inspection.file_parts.get(leaf.access[:1])
    if part is not None and part.format == "json":
        return part.name
    return METADATA if key.split(".")[0] == METADATA else ""


def node_at_path(inspection: FileInspection, path: str) -> Node | None:
    """The node whose dotted path is `path` (the same entry in another file), or None."""
    if inspection.root is None:
        return None
    stack = [inspection.root]
    while stack:
        node = stack.pop()
        if node_path(node) == path and node is not inspection.root:
            return node
        stack.extend(node.children)
    return None
