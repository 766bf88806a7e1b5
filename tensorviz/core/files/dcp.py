"""torch.distributed.checkpoint folders: `.metadata` (a pickle of torch's Metadata dataclasses,
read with our unpickler like any other pickle) says every tensor's shape, dtype and chunks, and
where each chunk lies in the `.distcp` files; each chunk is a small torch.save archive inside
them, read with the same reader when a value is asked for. Non-tensor items (an epoch, a
config) are small pickles in the same files, read while opening.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path

import torch

from tensorviz.core.files.file_errors import TensorFileError
from tensorviz.core.files.pickle_files import open_zip_reader, read_legacy, read_zip_pickle
from tensorviz.core.files.quoting import quoted
from tensorviz.core.files.readers import FileContent
from tensorviz.core.files.stand_ins import ObjectStandIn
from tensorviz.core.files.tree import MissingEntry
from tensorviz.core.files.value_reading import FileChangedError, read_bytes, real_copy, stamp_now
from tensorviz.core.files.weights_only import SafetyReport
from tensorviz.core.translation import _

MAX_ITEM_BYTES = 1 << 20


@dataclass(frozen=True)
class Chunk:
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    path: str
    offset: int
    length: int
    transformed: bool


@dataclass(frozen=True)
class ChunkedTensor:
    """A tensor's record: its chunks, assembled when its value is read."""

    dtype: torch.dtype
    size: tuple[int, ...]
    chunks: tuple[Chunk, ...]
    location: str = "cpu"

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.path for c in self.chunks))

    def read(self, files, into=None) -> torch.UntypedStorage:
        """The assembled tensor's storage (`into`, a ReadBuffer, is not used: the chunks are
        assembled into memory of their own)."""
        whole = torch.zeros(self.size, dtype=self.dtype)
        for chunk in self.chunks:
            name = Path(chunk.path).name
            if chunk.transformed:
                raise FileChangedError(
                    _(
                        "A chunk in {name} is stored transformed (compressed): "
                        "tensorviz cannot read it."
                    ).format(name=name)
                )
            blob = read_bytes(files.open(chunk.path), chunk.offset, chunk.length, chunk.path)
            piece = _chunk_tensor(blob.numpy().tobytes(), chunk.path, chunk.offset, files.stamps)
            region = whole
            for dim, (start, size) in enumerate(zip(chunk.offsets, chunk.sizes, strict=True)):
                region = region.narrow(dim, start, size)
            if tuple(piece.shape) != tuple(region.shape):
                raise FileChangedError(
                    _("A chunk in {name} does not have the shape .metadata says.").format(name=name)
                )
            region.copy_(piece)
        return whole.untyped_storage()


def _chunk_tensor(blob: bytes, path: str, base: int, stamps: dict) -> torch.Tensor:
    try:
        loaded = read_zip_pickle(path, open_zip_reader(io.BytesIO(blob)), base=base)
    except TensorFileError as problem:
        raise FileChangedError(
            _("A chunk in {name} cannot be read: {problem}").format(
                name=Path(path).name, problem=problem
            )
        ) from None
    if not isinstance(loaded.obj, torch.Tensor):
        raise FileChangedError(_("A chunk in {name} is not a tensor.").format(name=Path(path).name))
    return real_copy(loaded.obj, loaded.records, stamps)


def read_dcp(folder: str) -> FileContent:
    metadata_path = os.path.join(folder, ".metadata")
    content = FileContent("dcp", obj={}, stamps={metadata_path: stamp_now(metadata_path)})
    loaded = read_legacy(metadata_path)
    content.safety = SafetyReport.of(loaded.unpicklers, where=".metadata")
    content.safety.loader = "dcp.load"
    metadata = loaded.obj
    if not (isinstance(metadata, ObjectStandIn) and metadata.class_name.endswith(".Metadata")):
        raise TensorFileError(
            _("The .metadata file is not a torch.distributed.checkpoint Metadata.")
        )
    state = metadata.attributes()
    items, storage = state.get("state_dict_metadata"), state.get("storage_data")
    if not isinstance(items, dict) or not isinstance(storage, dict):
        raise TensorFileError(_("The .metadata file lacks its tensors' list or their places."))
    places = _places(folder, storage)
    for path in {c.path for cs in places.values() for c in cs}:
        if os.path.isfile(path):
            content.stamps[path] = stamp_now(path)
    flat = {}
    for fqn, item in items.items():
        fqn = str(fqn)
        flat[fqn] = _item(fqn, item, places.get(fqn, ()), content)
    planner = state.get("planner_data")
    content.obj = _nest(flat, planner)
    if isinstance(planner, dict):  # each entry's chunks under the key the tree reaches it by
        content.sources = {
            (tuple(planner[k[0]]) if _nested_path(planner.get(k[0])) else k): v
            for k, v in content.sources.items()
        }
    if content.safety.calls:  # shown in the tree too, wherever in .metadata they hide
        content.obj["(calls in .metadata)"] = list(content.safety.calls)
    files = sorted({Path(c.path).name for cs in places.values() for c in cs})
    tensors = sum(isinstance(v, torch.Tensor) for v in flat.values())
    content.notes.append(
        _(
            "A torch.distributed.checkpoint: {tensors} tensors in {files} .distcp file(s), shapes "
            "and chunks from .metadata, values read on demand. One torch.save file from it: "
            "{code}"
        ).format(
            tensors=tensors,
            files=len(files),
            code="from torch.distributed.checkpoint.format_utils import "
            f"dcp_to_torch_save; dcp_to_torch_save({folder!r}, 'checkpoint.pt')",
        )
    )
    return content


def _places(folder: str, storage: dict) -> dict[str, list[Chunk]]:
    """fqn → its chunks, from .metadata's storage_data {MetadataIndex: _StorageInfo}."""
    found: dict[str, list[Chunk]] = {}
    for index, info in storage.items():
        if not isinstance(index, ObjectStandIn) or not isinstance(info, ObjectStandIn):
            continue
        where, at = index.attributes(), info.attributes()
        relative = str(at.get("relative_path", ""))
        if os.path.basename(relative) != relative:
            continue  # a path outside the folder: never followed
        chunk = Chunk(tuple(where.get("offset") or ()), (), os.path.join(folder, relative),
                      int(at.get("offset", 0)), int(at.get("length", 0)),
                      bool(at.get("transform_descriptors")))  # fmt: skip
        found.setdefault(str(where.get("fqn")), []).append(chunk)
    return found


def _item(fqn: str, item, chunks: list[Chunk], content: FileContent):
    attrs = item.attributes() if isinstance(item, ObjectStandIn) else {}
    if isinstance(item, ObjectStandIn) and item.class_name.endswith("BytesStorageMetadata"):
        return _bytes_item(fqn, chunks, content)
    properties = attrs.get("properties")
    dtype = None
    if isinstance(properties, ObjectStandIn):
        state = properties.opaque_state() or properties.attributes()
        dtype = state[0] if isinstance(state, tuple) and state else state.get("dtype")
    size = attrs.get("size")
    if not isinstance(dtype, torch.dtype) or not isinstance(size, tuple):
        return MissingEntry(_("described in .metadata in a form tensorviz does not know"))
    declared = []
    for chunk_meta in attrs.get("chunks") or []:
        if isinstance(chunk_meta, ObjectStandIn):
            c = chunk_meta.attributes()
            declared.append((tuple(c.get("offsets") or ()), tuple(c.get("sizes") or ())))
    sizes = dict(declared)
    placed = tuple(Chunk(c.offsets, sizes.get(c.offsets, tuple(size)), c.path, c.offset,
                         c.length, c.transformed) for c in chunks)  # fmt: skip
    missing = [c for c in placed if not os.path.isfile(c.path)]
    if not placed or missing:
        shape = f"[{', '.join(map(str, size))}] {dtype}"
        if not missing:
            return MissingEntry(_("{tensor}: the folder holds no data for it").format(tensor=shape))
        return MissingEntry(
            _("{tensor}: its data file {name} is missing").format(
                tensor=shape, name=quoted(Path(missing[0].path).name)
            )
        )
    numel = 1
    for n in size:
        numel *= n
    storage = torch.UntypedStorage(numel * torch._utils._element_size(dtype), device="meta")
    content.records[storage._cdata] = ChunkedTensor(dtype, tuple(size), placed)
    content.sources[(fqn,)] = _chunk_text(placed)
    strides, step = [], 1
    for n in reversed(size):
        strides.append(step)
        step *= max(n, 1)
    return torch.empty(0, dtype=dtype, device="meta").set_(storage, 0, tuple(size),
                                                           tuple(reversed(strides)))  # fmt: skip


def _chunk_text(chunks: tuple[Chunk, ...]) -> str:
    names = sorted({Path(c.path).name for c in chunks})
    if len(chunks) == 1:
        return names[0]
    return _("{n} chunks in {files}").format(n=len(chunks), files=", ".join(names))


def _bytes_item(fqn: str, chunks: list[Chunk], content: FileContent):
    if len(chunks) != 1 or not os.path.isfile(chunks[0].path):
        return MissingEntry(_("a saved value whose data file is missing"))
    chunk = chunks[0]
    if chunk.length > MAX_ITEM_BYTES:
        return MissingEntry(
            _("a saved value of {nbytes} bytes, not read").format(nbytes=f"{chunk.length:,}")
        )
    with open(chunk.path, "rb") as f:
        f.seek(chunk.offset)
        blob = f.read(chunk.length)
    try:
        loaded = read_zip_pickle(chunk.path, open_zip_reader(io.BytesIO(blob)), base=chunk.offset)
    except TensorFileError as problem:
        return MissingEntry(
            _("a saved value that cannot be read: {problem}").format(problem=problem)
        )
    content.records.update(loaded.records)
    item = SafetyReport.of(loaded.unpicklers, where=Path(chunk.path).name)
    item.loader = "dcp.load"
    content.safety.merge(item)
    return loaded.obj


def _nested_path(path) -> bool:
    return isinstance(path, tuple) and bool(path) and all(isinstance(p, str) for p in path)


def _nest(flat: dict, planner) -> dict:
    """The state dict's own nesting, from planner_data (fqn → path of keys), when it has one."""
    if not isinstance(planner, dict):
        return flat
    nested: dict = {}
    for fqn, value in flat.items():
        path = planner.get(fqn)
        if not _nested_path(path):
            nested[fqn] = value
            continue
        target = nested
        for key in path[:-1]:
            target = target.setdefault(key, {})
            if not isinstance(target, dict):
                nested[fqn] = value
                break
        else:
            target[path[-1]] = value
    return nested
