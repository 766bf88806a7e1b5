"""Copies of a file's tensors read with ordinary reads, never through the file's memory mapping.

A file opened with mmap (torch.save zip, safetensors) can be truncated on disk while it is open —
a training script re-saving its checkpoint in place. Touching a mapped page past the new end of
the file kills the whole process with SIGBUS, and checking the file's size first is only a race.
So tensor data is never read through the mapping: when the file is opened, each mapped storage's
place in the file is worked out (the mapping is laid out exactly like the file, so storage
addresses minus the mapping's base are the records' offsets, verified record by record), and reads
copy those bytes with plain reads from the very file that was opened (its inode, size and mtime are
checked before and after). A short read or a changed stamp is a FileChangedError with one
sentence. Tensors we cannot place (sparse or quantized parts, say) come from a plain torch.load of
the same open file, without mmap.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import torch


class FileChangedError(OSError):
    """The file under loaded (possibly mmapped) tensors changed or vanished since it was opened."""


def stamp_now(path: str | os.PathLike) -> tuple:
    return _stamp_of(os.stat(path))


def _stamp_of(info: os.stat_result) -> tuple:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def match_offsets(storages: dict[int, int], records: dict[int, int]) -> dict[int, int] | None:
    """Storage address → file offset, given storages (address → bytes) that are slices of one
    mapping of the file and the file's data records (offset → bytes); None if they do not fit."""
    live = {ptr: n for ptr, n in storages.items() if n}
    if not live:
        return {}
    first = min(live)
    for offset, size in sorted(records.items()):
        if size != live[first]:
            continue
        base = first - offset
        if all(records.get(ptr - base) == n for ptr, n in live.items()):
            return {ptr: ptr - base for ptr in live}
    return None


def zip_records(path: str) -> dict[int, int]:
    """Offset → size of every tensor-data record of a torch.save zip archive."""
    reader = torch._C.PyTorchFileReader(path)
    return {
        reader.get_record_offset(name): reader.get_record_size(name)
        for name in reader.get_all_records()
        if name.startswith("data/")
    }


def mapped_storages(tensors: list[torch.Tensor]) -> dict[int, int]:
    """Address → bytes of the plain storages of these tensors."""
    found = {}
    for tensor in tensors:
        if _placeable(tensor):
            storage = tensor.untyped_storage()
            found[storage.data_ptr()] = storage.nbytes()
    return found


def _placeable(tensor: torch.Tensor) -> bool:
    return (
        isinstance(tensor, torch.Tensor)
        and not tensor.is_nested
        and tensor.layout == torch.strided
        and tensor.device.type == "cpu"
        and not tensor.is_quantized
        and not tensor.is_conj()
        and not tensor.is_neg()
    )


def value_at(obj, access: tuple):
    for step in access:
        obj = obj[step]
    return obj


def read_copies(
    path: str,
    fmt: str | None,
    stamp: tuple | None,
    offsets: dict[int, int] | None,
    loaded: object,
    accesses: list[tuple],
) -> list:
    """Copies of the entries at `accesses` of `loaded` (what was loaded from `path`) in ordinary
    memory, storage sharing between them kept. With `offsets` None nothing is backed by the file:
    the entries are deep-copied."""
    if offsets is None:
        return _deep_copies([value_at(loaded, access) for access in accesses])
    name = Path(path).name
    try:
        with open(path, "rb") as f:
            _check(f, stamp, name, "opened")
            result = _read(f, fmt, offsets, loaded, accesses, name)
            _check(f, stamp, name, "read")
    except FileNotFoundError:
        raise FileChangedError(
            f"{name} was deleted or moved since it was opened; reopen it to read its data."
        ) from None
    except FileChangedError:
        raise
    except OSError as error:
        raise FileChangedError(
            f"{name} could not be read ({error.strerror or type(error).__name__}); reopen it."
        ) from None
    return result


def _deep_copies(tensors: list) -> list:
    try:
        return copy.deepcopy(tensors)  # one call: its memo keeps sharing between the copies
    except Exception:  # noqa: BLE001 — some layouts (sparse csr, nested) cannot be deep-copied
        return [t.clone() if isinstance(t, torch.Tensor) else t for t in tensors]


def _check(f, stamp: tuple | None, name: str, when: str) -> None:
    if stamp is not None and _stamp_of(os.fstat(f.fileno())) != stamp:
        since = "since it was opened" if when == "opened" else "while its data was read"
        raise FileChangedError(f"{name} changed on disk {since}; reopen it to read its data.")


def _read(f, fmt, offsets: dict[int, int], loaded, accesses: list[tuple], name: str) -> list:
    storages: dict[int, torch.UntypedStorage] = {}
    plain = None  # the file loaded without mmap, only if some entry cannot be placed
    result = []
    for access in accesses:
        tensor = value_at(loaded, access)
        ptr = tensor.untyped_storage().data_ptr() if _placeable(tensor) else None
        if ptr is not None and (ptr in offsets or tensor.untyped_storage().nbytes() == 0):
            if ptr not in storages:
                storages[ptr] = _read_storage(f, offsets.get(ptr, 0), tensor, name)
            copied = torch.empty(0, dtype=tensor.dtype).set_(
                storages[ptr], tensor.storage_offset(), tensor.size(), tensor.stride()
            )
            result.append(copied)
        elif isinstance(tensor, torch.Tensor) and tensor.device.type == "meta":
            result.append(tensor)  # no data to read
        else:
            if plain is None:
                plain = _load_plainly(f, fmt, name)
            result.append(value_at(plain, access))
    return result


def _read_storage(f, offset: int, tensor: torch.Tensor, name: str) -> torch.UntypedStorage:
    nbytes = tensor.untyped_storage().nbytes()
    buffer = torch.empty(nbytes, dtype=torch.uint8)
    view, got = memoryview(buffer.numpy()), 0
    f.seek(offset)
    while got < nbytes:
        count = f.readinto(view[got:])
        if not count:
            raise FileChangedError(
                f"{name} changed on disk while its data was read (it is shorter now); "
                "reopen it to read its data."
            )
        got += count
    return buffer.untyped_storage()


def _load_plainly(f, fmt: str | None, name: str):
    """The whole file loaded again with ordinary reads from the open file (no mmap)."""
    if fmt != "torch-zip":
        raise FileChangedError(f"{name} cannot be read again without its mapping; reopen it.")
    try:
        f.seek(0)
        return torch.load(f, map_location="cpu", weights_only=True)
    except Exception:  # noqa: BLE001 — a file cut short mid-read fails in many ways
        raise FileChangedError(
            f"{name} changed on disk while its data was read; reopen it to read its data."
        ) from None
