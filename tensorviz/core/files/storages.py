"""Each tensor entry of a file described (shape, dtype, layout, bytes) and the storages the entries
share, counted once. Strided tensors get storage-sharing facts; sparse, nested, meta and anything
else without one plain storage get what can be known without touching data, and no sharing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from tensorviz.core.files.file_nodes import Node, StorageGroupInfo, TensorInfo
from tensorviz.core.files.value_reading import storage_key
from tensorviz.core.tensors.summary import dtype_name
from tensorviz.core.translation import _

if TYPE_CHECKING:
    from collections.abc import Callable


def layout_name(tensor: torch.Tensor) -> str:
    if tensor.is_nested:
        return "nested"
    return str(tensor.layout).removeprefix("torch.")


def share_storages(
    entries: list[Node], tensor_of: Callable[[tuple], torch.Tensor], records: dict | None = None
) -> list[StorageGroupInfo]:
    """Give every tensor node its TensorInfo, grouping strided tensors by the storage they read.
    `records`: storage key → where a meta storage's bytes lie in the file (value_reading); such a
    tensor is described as saved (its device is where it was saved from), not as a meta tensor."""
    records = records or {}
    ids: dict[tuple, int] = {}
    members: dict[int, list[Node]] = {}
    spans: dict[int, list[tuple[int, int]]] = {}
    storage_bytes: dict[int, int] = {}
    for node in entries:
        tensor = tensor_of(node.access)
        record = records.get(storage_key(tensor))
        try:
            storage = tensor.untyped_storage() if record else _plain_storage(tensor)
        except Exception:  # noqa: BLE001 — a layout torch cannot give a storage for
            storage = None
        if storage is None:
            node.tensor = _special_info(tensor)
            continue
        nbytes = storage.nbytes()
        if record is not None:
            key = ("file", storage._cdata) if nbytes else ("empty", id(node))
        else:
            key = (str(tensor.device), storage.data_ptr()) if nbytes else ("empty", id(node))
        storage_id = ids.setdefault(key, len(ids))
        element, shape, stride = tensor.element_size(), tuple(tensor.shape), tensor.stride()
        offset, numel = tensor.storage_offset(), tensor.numel()
        node.tensor = TensorInfo(
            shape=shape,
            dtype=dtype_name(tensor.dtype),
            device=record.location if record is not None else str(tensor.device),
            stride=stride,
            storage_offset=offset,
            nbytes=numel * element,
            storage_nbytes=nbytes,
            storage_id=storage_id,
            problem=_quantized_problem() if tensor.is_quantized else None,
        )
        members.setdefault(storage_id, []).append(node)
        storage_bytes[storage_id] = nbytes
        if numel:
            extent = 1 + sum((n - 1) * abs(st) for n, st in zip(shape, stride, strict=True))
            spans.setdefault(storage_id, []).append((offset * element, (offset + extent) * element))
    return [
        StorageGroupInfo(
            sid,
            storage_bytes[sid],
            tuple(n.key_text() for n in nodes),
            min(storage_bytes[sid], _union_length(spans.get(sid, []))),
        )
        for sid, nodes in members.items()
    ]


def _quantized_problem() -> str:
    return _(
        "a quantized tensor: its storage is shown, but values, statistics and sending to the "
        "workspace need dequantize() in your own code"
    )


def _plain_storage(tensor: torch.Tensor) -> torch.UntypedStorage | None:
    if tensor.is_nested or tensor.layout != torch.strided or tensor.device.type == "meta":
        return None
    return tensor.untyped_storage()


def _special_info(tensor: torch.Tensor) -> TensorInfo:
    """What a tensor without one plain storage tells without reading its data."""
    layout = layout_name(tensor)
    problem = None
    try:
        dtype = dtype_name(tensor.dtype)
    except Exception:  # noqa: BLE001
        dtype = "?"
    shape = _shape(tensor)
    nnz = None
    if layout.startswith("sparse"):
        try:
            nnz = int(tensor._nnz())
        except Exception:  # noqa: BLE001
            nnz = None
    nbytes = sum(part.nbytes for part in _parts(tensor))
    if tensor.device.type == "meta":
        problem = _("a meta tensor: shape and dtype only, no data was saved")
        nbytes = 0
    elif layout != "strided":
        problem = _(
            "a {layout} tensor: no strided storage, so no sharing, values or statistics"
        ).format(layout=layout)
    else:
        problem = _("torch gives no storage for it: shape and dtype only")
    return TensorInfo(shape, dtype, str(tensor.device), None, None, nbytes, nbytes, None,
                      layout, nnz, problem)  # fmt: skip


def _shape(tensor: torch.Tensor) -> tuple | None:
    try:
        return tuple(d if isinstance(d, int) else str(d) for d in tensor.shape)
    except Exception:  # noqa: BLE001 — a strided nested tensor has no sizes; its parts do
        pass
    try:
        sizes = tensor._nested_tensor_size()
        columns = [sizes[:, i] for i in range(sizes.shape[1])]
        ragged = [int(c[0]) if bool((c == c[0]).all()) else "*" for c in columns]
        return (int(sizes.shape[0]), *ragged)
    except Exception:  # noqa: BLE001
        return None


def _parts(tensor: torch.Tensor) -> list[torch.Tensor]:
    """The dense tensors a sparse or nested tensor is made of (their bytes are its bytes)."""
    getters = {
        "sparse_coo": ("_indices", "_values"),
        "sparse_csr": ("crow_indices", "col_indices", "values"),
        "sparse_bsr": ("crow_indices", "col_indices", "values"),
        "sparse_csc": ("ccol_indices", "row_indices", "values"),
        "sparse_bsc": ("ccol_indices", "row_indices", "values"),
    }
    layout = layout_name(tensor)
    try:
        if layout == "nested":
            if tensor.layout == torch.jagged:
                return [tensor.values(), tensor.offsets()]
            return [tensor._nested_tensor_size(), tensor._nested_tensor_strides(),
                    tensor.values()]  # fmt: skip
        return [getattr(tensor, name)() for name in getters.get(layout, ())]
    except Exception:  # noqa: BLE001 — bytes unknown: 0
        return []


def sum_bytes(node: Node) -> dict:
    """Bytes a subtree stores on disk: each storage once, however many entries read it.
    Returns the storages below `node` (id → bytes); a tensor without storage counts alone."""
    if node.kind == "tensor":
        info = node.tensor
        key = info.storage_id if info.storage_id is not None else ("own", id(node))
        found = {key: info.storage_nbytes}
    else:
        found = {}
        for child in node.children:
            found.update(sum_bytes(child))
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
