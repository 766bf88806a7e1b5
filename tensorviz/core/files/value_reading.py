"""Tensor values read on demand, with ordinary reads, from the files they lie in.

Opening a file never reads tensor data: the tree's tensors are built on the meta device and each
meta storage has a record of where its bytes are (`StoredBytes`: file, offset, length; a
torch.distributed.checkpoint tensor has a record that assembles its chunks). Reading a value
copies those bytes with plain reads from the very file that was opened — its inode, size and
mtime are checked before and after — never through a memory mapping: a training script
re-saving its checkpoint in place would otherwise turn a read past the new end into SIGBUS. A
short read or a changed stamp is a FileChangedError with one sentence.

Tensors that are not file-backed (NumPy files, layouts whose bytes were read while opening) are
deep-copied, so whatever the caller gets never aliases the inspection.

A caller that reads many values in turn and keeps each only until the next (the checkpoint
comparison) can read them into a `ReadBuffer`: fresh memory for every value costs more in page
faults than the read itself (measured here: 1 GB of 10 MB tensors, 1.2 s into fresh memory, 0.15 s
into one reused buffer).
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from pathlib import Path

import torch

from tensorviz.core.translation import _


class FileChangedError(OSError):
    """The file under the listed tensors changed or vanished since it was opened."""


def stamp_now(path: str | os.PathLike) -> tuple:
    return _stamp_of(os.stat(path))


def _stamp_of(info: os.stat_result) -> tuple:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


@dataclass(frozen=True)
class StoredBytes:
    """Where one storage's bytes lie: `nbytes` from `offset` of `path`."""

    path: str
    offset: int
    nbytes: int
    location: str = "cpu"  # the device it was saved from
    swap_dtype: torch.dtype | None = None  # saved big-endian: swapped on reading

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path,)

    def read(self, files: OpenFiles, into: ReadBuffer | None = None) -> torch.UntypedStorage:
        swapped = self.swap_dtype is not None and torch._utils._element_size(self.swap_dtype) > 1
        if swapped:  # byteswap works on a whole storage: this one gets its own
            into = None
        buffer = read_bytes(files.open(self.path), self.offset, self.nbytes, self.path, into)
        storage = buffer.untyped_storage()
        if swapped:
            storage.byteswap(self.swap_dtype)
        return storage


class ReadBuffer:
    """Memory that one read after another fills. A value read into it stays valid only until the
    next read into the same buffer; it grows to the largest value read and is freed with it."""

    def __init__(self) -> None:
        self._memory = torch.empty(0, dtype=torch.uint8)

    def take(self, nbytes: int) -> torch.Tensor:
        """The first `nbytes` of the buffer, as uint8, grown first where it is smaller."""
        if self._memory.numel() < nbytes:
            self._memory = torch.empty(0, dtype=torch.uint8)  # the old one goes first
            self._memory = torch.empty(nbytes, dtype=torch.uint8)
        return self._memory[:nbytes]


def read_bytes(
    f, offset: int, nbytes: int, path: str, into: ReadBuffer | None = None
) -> torch.Tensor:
    """`nbytes` from `offset` of an open file as a uint8 tensor (in `into`'s memory when given);
    short means the file changed."""
    buffer = torch.empty(nbytes, dtype=torch.uint8) if into is None else into.take(nbytes)
    view, got = memoryview(buffer.numpy()), 0
    f.seek(offset)
    while got < nbytes:
        count = f.readinto(view[got:])
        if not count:
            raise FileChangedError(
                _(
                    "{name} changed on disk while its data was read (it is shorter now); reopen it "
                    "to read its data."
                ).format(name=Path(path).name)
            )
        got += count
    return buffer


class OpenFiles:
    """The files one read needs, each opened once and checked against its stamp."""

    def __init__(self, stamps: dict[str, tuple]) -> None:
        self.stamps, self._open = stamps, {}

    def open(self, path: str):
        if path not in self._open:
            name = Path(path).name
            try:
                f = open(path, "rb")  # noqa: SIM115 — closed in close()
            except FileNotFoundError:
                raise FileChangedError(
                    _(
                        "{name} was deleted or moved since it was opened; reopen it to read its "
                        "data."
                    ).format(name=name)
                ) from None
            self._open[path] = f
            _check(f, self.stamps.get(path), name, "opened")
        return self._open[path]

    def close(self, check: bool = True) -> None:
        """Close every file; with `check`, raise if one changed while it was read."""
        changed = None
        for path, f in self._open.items():
            try:
                if check and changed is None:
                    _check(f, self.stamps.get(path), Path(path).name, "read")
            except FileChangedError as error:
                changed = error
            finally:
                f.close()
        if changed is not None:
            raise changed


def storage_key(tensor: torch.Tensor) -> int | None:
    """Identity of a tensor's storage (the same for every view of it), or None."""
    if not isinstance(tensor, torch.Tensor) or tensor.is_nested or tensor.layout != torch.strided:
        return None
    try:
        return tensor.untyped_storage()._cdata
    except Exception:  # noqa: BLE001 — a tensor kind without a storage
        return None


def value_at(obj, access: tuple):
    from tensorviz.core.files.stand_ins import apply_step

    for step in access:
        obj = apply_step(obj, step)
    return obj


def read_copies(
    path: str,
    fmt: str | None,
    stamp: tuple | None,
    offsets: dict | None,
    loaded: object,
    accesses: list[tuple],
    stamps: dict[str, tuple] | None = None,
    into: ReadBuffer | None = None,
) -> list:
    """Copies of the entries at `accesses` of `loaded` in ordinary memory, storage sharing between
    them kept. `offsets`: storage key → StoredBytes (or any record with .read and .paths);
    `stamps`: path → stamp of every file involved (`path`/`stamp` for a single file); `into`: the
    buffer to read one access's bytes into (ignored for several: each needs memory of its own)."""
    records = offsets or {}
    stamps = dict(stamps or {})
    if stamp is not None:
        stamps.setdefault(path, stamp)
    tensors = [value_at(loaded, access) for access in accesses]
    if not any(storage_key(t) in records for t in tensors):
        return _deep_copies(tensors)
    files = OpenFiles(stamps)
    try:
        try:
            result = _read(files, records, tensors, into if len(tensors) == 1 else None)
        except BaseException:
            files.close(check=False)
            raise
        files.close()
    except FileChangedError:
        raise
    except OSError as error:
        raise FileChangedError(
            _("{name} could not be read ({why}); reopen it.").format(
                name=Path(path).name, why=error.strerror or type(error).__name__
            )
        ) from None
    return result


def _deep_copies(tensors: list) -> list:
    try:
        return copy.deepcopy(tensors)  # one call: its memo keeps sharing between the copies
    except Exception:  # noqa: BLE001 — some layouts (sparse csr, nested) cannot be deep-copied
        return [t.clone() if isinstance(t, torch.Tensor) else t for t in tensors]


def _check(f, stamp: tuple | None, name: str, when: str) -> None:
    if stamp is not None and _stamp_of(os.fstat(f.fileno())) != stamp:
        if when == "opened":
            sentence = _("{name} changed on disk since it was opened; reopen it to read its data.")
        else:
            sentence = _(
                "{name} changed on disk while its data was read; reopen it to read its data."
            )
        raise FileChangedError(sentence.format(name=name))


def _read(files: OpenFiles, records: dict, tensors: list, into: ReadBuffer | None) -> list:
    storages: dict[int, torch.UntypedStorage] = {}
    result = []
    for tensor in tensors:
        key = storage_key(tensor)
        if key not in records:
            result.append(_deep_copies([tensor])[0])
            continue
        if key not in storages:
            storages[key] = records[key].read(files, into)
        dtype = tensor.dtype
        copied = torch.empty(0, dtype=dtype).set_(
            storages[key], tensor.storage_offset(), tensor.size(), tensor.stride()
        )
        if tensor.is_conj():
            copied = copied.conj()
        result.append(copied)
    return result


def real_copy(tensor: torch.Tensor, records: dict, stamps: dict[str, tuple]) -> torch.Tensor:
    """One file-backed tensor read into ordinary memory now (for layouts torch cannot build on
    the meta device: sparse, quantized, nested parts)."""
    return read_copies("", None, None, records, tensor, [()], stamps)[0]
