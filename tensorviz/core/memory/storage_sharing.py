"""Which workspace tensors read the same memory: one group per storage (keyed by the untyped
storage's data pointer), each member placed on the group's strip of cells. A NumPy array made
with from_numpy lies on its tensor's strip, with its byte strides next to the element strides."""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np

from tensorviz.core.memory.strides import Layout
from tensorviz.core.tensors.identity import dtype_name, storage_key
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.core.translation import _


@dataclass(frozen=True)
class StripMember:
    name: str  # workspace name; "name (NumPy)" for a shared NumPy array
    layout: Layout  # in cells of the strip (cell_bytes each)
    dtype: str
    byte_stride: tuple[int, ...]
    is_numpy: bool = False

    def describe(self) -> str:
        if self.is_numpy:
            template = _(
                "{name} [{shape}] {dtype}: NumPy strides {bytes} bytes = {cells} cells, "
                "offset {offset}"
            )
        else:
            template = _(
                "{name} [{shape}] {dtype}: stride {bytes} bytes = {cells} cells, offset {offset}"
            )
        return template.format(
            name=self.name,
            shape=", ".join(map(str, self.layout.shape)),
            dtype=self.dtype,
            bytes=self.byte_stride,
            cells=tuple(self.layout.stride),
            offset=self.layout.offset,
        )


@dataclass(frozen=True)
class StorageGroup:
    key: tuple[str, int]
    nbytes: int
    cell_bytes: int  # one strip cell is this many bytes (the members' common element size)
    members: tuple[StripMember, ...]

    @property
    def cells(self) -> int:
        return self.nbytes // self.cell_bytes

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members if not m.is_numpy]


def _numpy_member(name: str, array: np.ndarray, base_ptr: int, nbytes: int, cell_bytes: int):
    """The array as a strip member when its memory lies inside the storage (from_numpy)."""
    pointer = array.__array_interface__["data"][0]
    if not base_ptr <= pointer < base_ptr + max(nbytes, 1) or array.size == 0:
        return None
    if (pointer - base_ptr) % cell_bytes or any(s % cell_bytes for s in array.strides):
        return None
    layout = Layout(
        tuple(array.shape),
        tuple(s // cell_bytes for s in array.strides),
        (pointer - base_ptr) // cell_bytes,
        cell_bytes,
    )
    return StripMember(f"{name} (NumPy)", layout, str(array.dtype), tuple(array.strides), True)


def sharing_groups(workspace: Workspace) -> list[StorageGroup]:
    """Every storage of the workspace, in order of first appearance, with its readers."""
    by_key: dict[tuple[str, int], list[str]] = {}
    for name in workspace.names():
        key = storage_key(workspace.tensor(name))
        if key is not None:
            by_key.setdefault(key, []).append(name)
    groups = []
    for key, names in by_key.items():
        tensors = [workspace.tensor(n) for n in names]
        storage = tensors[0].untyped_storage()
        cell_bytes = 0
        for tensor in tensors:
            cell_bytes = gcd(cell_bytes, tensor.element_size())
        members = []
        for name, tensor in zip(names, tensors, strict=True):
            ratio = tensor.element_size() // cell_bytes
            layout = Layout(
                tuple(tensor.shape),
                tuple(s * ratio for s in tensor.stride()),
                tensor.storage_offset() * ratio,
                cell_bytes,
            )
            byte_stride = tuple(s * tensor.element_size() for s in tensor.stride())
            dtype = dtype_name(tensor.dtype)
            members.append(StripMember(name, layout, dtype, byte_stride))
            array = workspace.entry(name).numpy_array
            if array is not None:
                shared = _numpy_member(
                    name, array, storage.data_ptr(), storage.nbytes(), cell_bytes
                )
                if shared is not None:
                    members.append(shared)
        groups.append(StorageGroup(key, storage.nbytes(), cell_bytes, tuple(members)))
    return groups


def group_of(groups: list[StorageGroup], name: str) -> StorageGroup | None:
    return next((g for g in groups if name in g.names), None)
