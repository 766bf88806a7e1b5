"""torch.save files read with our unpickler: the zip format (also TorchScript archives and the
chunks of a distributed checkpoint, which are zip archives too), the legacy format and plain
pickles. Storages are made on the meta device with a record of where their bytes are; no tensor
data is read while opening, except for the few layouts that need it (sparse, quantized, nested).
"""

from __future__ import annotations

import io
import os
import struct
import sys
from dataclasses import dataclass, field

import torch

from tensorviz.core.files.file_errors import TensorFileError, zip_directory_damaged
from tensorviz.core.files.stand_ins import GlobalRef
from tensorviz.core.files.unpickler import ByteSource, FileSource, PickleReadError, SafeUnpickler
from tensorviz.core.files.value_reading import StoredBytes, real_copy, stamp_now, storage_key
from tensorviz.core.files.weights_only import unsupported_opcodes
from tensorviz.core.translation import _

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


@dataclass
class LoadedPickle:
    """One pickle read: the object, where its storages' bytes are, what the unpickler saw."""

    obj: object = None
    records: dict = field(default_factory=dict)  # storage key → StoredBytes
    unpicklers: list[SafeUnpickler] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    protocol: int = 0
    weights_only_opcodes: list[str] = field(default_factory=list)  # ones torch cannot read
    pickle_data: bytes | None = field(default=None, repr=False)  # a zip's data.pkl
    plain_pickle: bool = False  # a pickle not written by torch.save


class FileStorages:
    """persistent_load for torch files, and the materializer the rebuild functions ask for bytes.
    `place(key, nbytes)` says where the storage `key` lies: (path, offset) — or raises."""

    def __init__(self, path: str, place, swap: bool, loaded: LoadedPickle) -> None:
        self.path, self.place, self.swap, self.loaded = path, place, swap, loaded
        self.notes = loaded.notes
        self.by_key: dict[str, torch.storage.TypedStorage] = {}

    def storage(self, pid):
        if not isinstance(pid, tuple) or not pid:
            raise PickleReadError(
                _("The pickle refers to stored data in a form torch never writes.")
            )
        kind = pid[0].decode("ascii") if isinstance(pid[0], bytes) else pid[0]
        if kind == "module" and len(pid) >= 2:  # legacy whole-model saves: the class itself
            return pid[1]
        if kind != "storage" or len(pid) not in (5, 6):
            raise PickleReadError(
                _("The pickle refers to stored data in a form torch never writes.")
            )
        storage_type, key, location, numel = pid[1:5]
        dtype = torch.uint8 if storage_type is torch.UntypedStorage else storage_type
        dtype = getattr(dtype, "dtype", dtype)
        if not isinstance(dtype, torch.dtype) or not isinstance(numel, int) or numel < 0:
            raise PickleReadError(_("The pickle names a storage of an unknown type or size."))
        key, location = str(key), str(location)
        if key not in self.by_key:
            nbytes = numel * torch._utils._element_size(dtype)
            path, offset = self.place(key, nbytes)
            untyped = torch.UntypedStorage(nbytes, device="meta")
            swap = dtype if self.swap else None
            self.loaded.records[untyped._cdata] = StoredBytes(path, offset, nbytes, location, swap)
            self.by_key[key] = torch.storage.TypedStorage(
                wrap_storage=untyped, dtype=dtype, _internal=True
            )
        typed = self.by_key[key]
        if typed.dtype != dtype:  # one storage read as two dtypes: same bytes, new view
            typed = torch.storage.TypedStorage(
                wrap_storage=typed._untyped_storage, dtype=dtype, _internal=True
            )
        view = pid[5] if len(pid) == 6 else None
        if view is not None:
            self.notes.append(_("A legacy storage view is listed as a storage of its own."))
        return typed

    def _stamps(self) -> dict:
        return {p: stamp_now(p) for p in {r.path for r in self.loaded.records.values()}}

    def real_tensor(self, tensor: torch.Tensor) -> torch.Tensor:
        if storage_key(tensor) not in self.loaded.records:
            return tensor
        return real_copy(tensor, self.loaded.records, self._stamps())

    def real_storage(self, storage):
        key = storage._untyped_storage._cdata
        if key not in self.loaded.records:
            return storage
        record = self.loaded.records[key]
        flat = torch.empty(0, dtype=torch.uint8, device="meta").set_(
            storage._untyped_storage, 0, (record.nbytes,), (1,)
        )
        real = real_copy(flat, self.loaded.records, self._stamps())
        return torch.storage.TypedStorage(
            wrap_storage=real.untyped_storage(), dtype=storage.dtype, _internal=True
        )


def _unpickle(data, storages: FileStorages | None, loaded: LoadedPickle, materializer=None):
    source = data if isinstance(data, ByteSource) else ByteSource(data)
    unpickler = SafeUnpickler(
        source, materializer or storages or _NoData(loaded.notes),
        storages.storage if storages else None,
    )  # fmt: skip
    loaded.unpicklers.append(unpickler)
    try:
        obj = unpickler.load()
    except RecursionError:
        raise TensorFileError(_("The pickle nests deeper than Python can follow.")) from None
    except PickleReadError as error:
        raise TensorFileError(str(error)) from None
    loaded.protocol = max(loaded.protocol, unpickler.protocol)
    return obj


class _NoData:
    def __init__(self, notes: list[str]) -> None:
        self.notes = notes

    def real_tensor(self, tensor):
        return tensor

    def real_storage(self, storage):
        return storage


# --- the zip format ------------------------------------------------------------------------------


class ZipRecords:
    """torch's own zip reader (it reads only the directory and the records asked for), each of
    its failures — C++ messages of many lines — turned into one sentence."""

    def __init__(self, source) -> None:
        try:
            self._reader = torch._C.PyTorchFileReader(source)
        except Exception:  # noqa: BLE001
            raise TensorFileError(zip_directory_damaged()) from None

    def _ask(self, what: str, *args):
        try:
            return getattr(self._reader, what)(*args)
        except Exception:  # noqa: BLE001
            damaged = (
                _("The zip archive is damaged: its record {name} cannot be read.")
                if args
                else _("The zip archive is damaged: its record cannot be read.")
            )
            raise TensorFileError(damaged.format(name=args[0] if args else "")) from None

    def has_record(self, name: str) -> bool:
        return self._ask("has_record", name)

    def get_record(self, name: str) -> bytes:
        return bytes(self._ask("get_record", name))

    def get_record_size(self, name: str) -> int:
        return self._ask("get_record_size", name)

    def get_record_offset(self, name: str) -> int:
        return self._ask("get_record_offset", name)

    def get_all_records(self) -> list[str]:
        return self._ask("get_all_records")


def open_zip_reader(source) -> ZipRecords:
    return ZipRecords(source)


def read_zip_pickle(
    path: str, reader, pickle_name: str = "data.pkl", data_folder: str = "data", base: int = 0
) -> LoadedPickle:
    """One pickle of a torch zip archive, its storages in `data_folder/KEY` records. `base`: where
    the archive starts inside `path` (a distributed checkpoint's chunk)."""
    loaded = LoadedPickle()
    if not reader.has_record(pickle_name):
        raise TensorFileError(_("The archive holds no {name}.").format(name=pickle_name))
    swap = False
    if reader.has_record("byteorder"):
        order = bytes(reader.get_record("byteorder"))
        swap = order.decode("ascii", "replace") != sys.byteorder
        if order not in (b"little", b"big"):
            raise TensorFileError(_("The archive's byteorder record is neither little nor big."))

    def place(key: str, nbytes: int) -> tuple[str, int]:
        name = f"{data_folder}/{key}"
        if not reader.has_record(name):
            raise PickleReadError(
                _("The archive has no record {name} for a tensor's data.").format(name=name)
            )
        if reader.get_record_size(name) < nbytes:
            raise PickleReadError(
                _("The archive's record {name} is shorter than its tensor.").format(name=name)
            )
        return path, base + reader.get_record_offset(name)

    storages = FileStorages(path, place, swap, loaded)
    data = reader.get_record(pickle_name)
    loaded.obj = _unpickle(data, storages, loaded)
    loaded.weights_only_opcodes = unsupported_opcodes(loaded.unpicklers[-1].opcodes_seen)
    loaded.pickle_data = data
    return loaded


# --- the legacy format and plain pickles ---------------------------------------------------------


def read_legacy(path: str) -> LoadedPickle:
    """torch.save(..., _use_new_zipfile_serialization=False): magic, protocol, system info, the
    object, its storage keys, then each storage as a count and its bytes. Where every storage lies
    is worked out first (the object's pickle is skipped with pickletools, which runs nothing), so
    the object is read knowing it. A file that does not start with torch's magic number is a plain
    pickle: its first pickle is the object."""
    loaded = LoadedPickle()
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        source = FileSource(f, size)
        magic = _unpickle(source, None, loaded)
        if magic != LEGACY_MAGIC:
            loaded.obj = magic
            loaded.notes.append(_("A plain pickle (not written by torch.save): read as it is."))
            loaded.plain_pickle = True
            return loaded
        _unpickle(source, None, loaded)  # protocol version
        info = _unpickle(source, None, loaded)
        little = not isinstance(info, dict) or info.get("little_endian", True)
        start = f.tell()
        sizes = _legacy_element_sizes(path, f, size)  # a first pass that reads no data
        keys = _unpickle(source, None, loaded)
        if not isinstance(keys, list):
            raise TensorFileError(_("The file's list of storages is damaged."))
        places = _legacy_places(f, size, keys, sizes, little)
        loaded.unpicklers.clear()  # the framing pickles are torch's, not the file's content

        def place(key: str, nbytes: int) -> tuple[str, int]:
            if key not in places:
                raise PickleReadError(
                    _("The storage {key} is not in the file's data.").format(key=repr(key))
                )
            offset, count_bytes = places[key]
            if count_bytes < nbytes:
                raise PickleReadError(
                    _("The storage {key} is shorter than its tensor.").format(key=repr(key))
                )
            return path, offset

        f.seek(start)
        storages = FileStorages(path, place, swap=(sys.byteorder == "little") != little,
                                loaded=loaded)  # fmt: skip
        loaded.obj = _unpickle(FileSource(f, size), storages, loaded)
    loaded.notes.append(
        _(
            "Legacy (non-zip) torch.save format: values are read from the file when shown. Re-save "
            "it with torch.save to get the zip format."
        )
    )
    return loaded


def _legacy_element_sizes(path: str, f, size: int) -> dict[str, int]:
    """Storage key → element size, from a first reading of the object's pickle that places every
    storage nowhere and reads no bytes (layouts that would need them are left unbuilt)."""
    dry = LoadedPickle()
    storages = FileStorages(path, lambda key, nbytes: (path, 0), False, dry)
    _unpickle(FileSource(f, size), storages, dry, materializer=_NoData([]))
    return {key: torch._utils._element_size(typed.dtype) for key, typed in storages.by_key.items()}


def _legacy_places(f, size: int, keys: list, sizes: dict, little: bool) -> dict:
    """key → (offset of its bytes, bytes there) in the legacy data region: for each storage key,
    an 8-byte element count, then count × element size bytes."""
    order = "<" if little else ">"
    truncated = _("The file is truncated: it ends before its tensor data does.")
    places, offset = {}, f.tell()
    for key in map(str, keys):
        f.seek(offset)
        raw = f.read(8)
        if len(raw) < 8 or key not in sizes:
            raise TensorFileError(truncated)
        (count,) = struct.unpack(f"{order}q", raw)
        nbytes = count * sizes[key]
        if count < 0 or offset + 8 + nbytes > size:
            raise TensorFileError(truncated)
        places[key] = (offset + 8, nbytes)
        offset += 8 + nbytes
    return places


def read_plain_bytes(data: bytes) -> LoadedPickle:
    """A pickle held in memory (a distributed checkpoint's non-tensor item)."""
    loaded = LoadedPickle()
    try:
        loaded.obj = _unpickle(data, None, loaded)
    except TensorFileError:
        reader = open_zip_reader(io.BytesIO(data)) if data[:2] == b"PK" else None
        if reader is None:
            raise
        return read_zip_pickle("", reader)
    return loaded


def global_names(loaded: LoadedPickle) -> list[str]:
    names: dict[str, None] = {}
    for unpickler in loaded.unpicklers:
        names.update(unpickler.globals_seen)
    return list(names)


def is_global(value) -> bool:
    return isinstance(value, GlobalRef)
