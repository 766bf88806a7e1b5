"""Reading a session with the rules of every tensor file: nothing in it runs (JSON and safetensors
only, never pickle), every field is checked before a tensor is made, and any problem is one
sentence (SessionFileError) — the caller's state is touched only with a complete result.
"""

from __future__ import annotations

import json
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import safetensors.torch
import torch

from tensorviz.core.session.manifest_checks import Checked, checked_manifest
from tensorviz.core.session.session_dtypes import DTYPES
from tensorviz.core.session.session_format import (
    MANIFEST,
    MANIFEST_MAX_BYTES,
    SessionCancelledError,
    SessionFileError,
)
from tensorviz.core.tensors.memory_budget import available_memory_bytes, human_bytes
from tensorviz.core.tensors.workspace import Provenance, WorkspaceEntry
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.translation import _


@dataclass
class LoadedSession:
    entries: list[WorkspaceEntry]  # uid / parent_uids as saved: Workspace.replace_all renews them
    script_text: str | None
    training: TrainingConfig | None
    written_by: str
    notes: list[str] = field(default_factory=list)


def read_session(
    path: str | Path,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> LoadedSession:
    try:
        with zipfile.ZipFile(path) as archive:
            return _read(archive, progress, cancelled)
    except SessionFileError as error:
        raise SessionFileError(_cannot_open(path, str(error))) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as error:
        reason = _("it is not a tensorviz session (not a zip file)")
        if isinstance(error, OSError) and not isinstance(error, zipfile.BadZipFile):
            reason = error.strerror or str(error)
        elif "zip file" not in str(error).lower():
            reason = _("the file is damaged ({detail})").format(detail=error)
        raise SessionFileError(_cannot_open(path, reason)) from None


def _cannot_open(path, reason: str) -> str:
    return _("Cannot open {name}: {reason}.").format(name=Path(path).name, reason=reason)


def _read(archive: zipfile.ZipFile, progress, cancelled) -> LoadedSession:
    manifest = checked_manifest(_manifest(archive))
    storages = _storages(archive, manifest, progress, cancelled)
    notes: list[str] = []
    entries = [_entry(record, storages, notes) for record in manifest.tensors]
    return LoadedSession(
        entries, manifest.script, _training(manifest.training), manifest.written_by, notes
    )


def _manifest(archive: zipfile.ZipFile) -> dict:
    try:
        info = archive.getinfo(MANIFEST)
    except KeyError:
        raise SessionFileError(
            _("it is not a tensorviz session (it has no {manifest})").format(manifest=MANIFEST)
        ) from None
    if info.file_size > MANIFEST_MAX_BYTES:
        raise SessionFileError(
            _("its {manifest} is {size}, too big").format(
                manifest=MANIFEST, size=human_bytes(info.file_size)
            )
        )
    with archive.open(info) as member:
        raw = member.read(MANIFEST_MAX_BYTES + 1)
    if len(raw) > MANIFEST_MAX_BYTES:
        raise SessionFileError(_("its {manifest} is larger than it says").format(manifest=MANIFEST))
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SessionFileError(
            _("its {manifest} is not valid UTF-8 JSON").format(manifest=MANIFEST)
        ) from None


def _storages(archive, manifest: Checked, progress, cancelled) -> list[torch.UntypedStorage]:
    """Every storage, read from its safetensors member (or made on the meta device)."""
    made: dict[int, torch.UntypedStorage] = {}
    shards: dict[str, list[int]] = {}
    for index, record in enumerate(manifest.storages):
        if record["device"] == "meta":
            made[index] = torch.empty(record["nbytes"], dtype=torch.uint8, device="meta")
            made[index] = made[index].untyped_storage()
        else:
            shards.setdefault(record["shard"], []).append(index)
    total = sum(manifest.storages[i]["nbytes"] for members in shards.values() for i in members)
    done = 0
    for shard, members in shards.items():
        if cancelled is not None and cancelled():
            raise SessionCancelledError
        loaded = _shard(archive, shard)
        for index in members:
            made[index] = _checked_storage(loaded, shard, index, manifest.storages[index])
        done += sum(manifest.storages[i]["nbytes"] for i in members)
        if progress is not None:
            progress(done, total)
    return [made[i] for i in range(len(manifest.storages))]


def _shard(archive: zipfile.ZipFile, shard: str) -> dict[str, torch.Tensor]:
    try:
        info = archive.getinfo(shard)
    except KeyError:
        raise SessionFileError(_("its member {shard} is missing").format(shard=shard)) from None
    room = available_memory_bytes()
    if info.file_size * 2 > room:  # the member's bytes, then the tensors made from them
        raise SessionFileError(
            _("its member {shard} needs {needed} of memory to read, and {free} is free").format(
                shard=shard, needed=human_bytes(info.file_size * 2), free=human_bytes(room)
            )
        )
    data = archive.read(info)  # (zipfile checks the length and CRC: a damaged member raises)
    try:
        with warnings.catch_warnings():  # views of an immutable bytes object; copied below
            warnings.simplefilter("ignore", UserWarning)
            return safetensors.torch.load(data)
    except Exception as error:  # noqa: BLE001 — the library's SafetensorError and its kin
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SessionFileError(
            _("its member {shard} is not valid safetensors ({detail})").format(
                shard=shard, detail=detail
            )
        ) from None


def _checked_storage(loaded: dict, shard: str, index: int, record: dict):
    key = record["key"]
    tensor = loaded.get(key)
    if tensor is None:
        raise SessionFileError(
            _("storage {index} ({key}) is missing from {shard}").format(
                index=index, key=key, shard=shard
            )
        )
    nbytes = tensor.numel() * tensor.element_size()
    if tensor.dim() != 1 or nbytes != record["nbytes"] or tensor.dtype != DTYPES[record["dtype"]]:
        raise SessionFileError(
            _(
                "storage {index} in {shard} is {nbytes:,} bytes of {dtype}, but the manifest "
                "says {expected:,} bytes of {expected_dtype}"
            ).format(
                index=index,
                shard=shard,
                nbytes=nbytes,
                dtype=tensor.dtype,
                expected=record["nbytes"],
                expected_dtype=record["dtype"],
            )
        )
    storage = tensor.clone().untyped_storage()  # memory of its own, writable
    device = record["device"]
    if device != "cpu":
        storage = _on_device(storage, device)
    return storage


def _on_device(storage: torch.UntypedStorage, device: str):
    try:
        return storage.to(device=torch.device(device))
    except (RuntimeError, AssertionError, ValueError):  # no such device here: stays on the CPU
        return storage


def _entry(record: dict, storages: list, notes: list[str]) -> WorkspaceEntry:
    name = record["name"]
    tensor = _view(record["tensor"], storages, name)
    saved_device = record["tensor_device"]
    extra: list[str] = []
    if str(tensor.device) != saved_device:
        extra.append(
            _("{name} was on {saved}, which this machine lacks: it is on {device} now.").format(
                name=name, saved=saved_device, device=tensor.device
            )
        )
        notes.append(extra[-1])
    if record["requires_grad"]:
        tensor.requires_grad_(True)
    if record["grad"] is not None:
        grad = _view(record["grad"], storages, f"{name}.grad")  # (code: stays as written)
        try:
            tensor.grad = grad.to(tensor.device)
        except RuntimeError as error:
            raise SessionFileError(
                _("the .grad of {name} does not fit it ({error})").format(name=name, error=error)
            ) from None
    if record["grad_fn"]:
        extra.append(
            _(
                "Restored from a session: {name} was made by {grad_fn}, but sessions do not "
                "keep autograd graphs, so it has no grad_fn now."
            ).format(name=name, grad_fn=record["grad_fn"])
        )
    array = None
    if record["numpy"] is not None:
        try:
            what = _("the NumPy array of {name}").format(name=name)
            array = _view(record["numpy"], storages, what).numpy()
        except (TypeError, RuntimeError):  # a dtype NumPy lacks, or memory off the CPU
            notes.append(
                _("The NumPy array of {name} could not be made again; it is left out.").format(
                    name=name
                )
            )
    p = record["provenance"]
    provenance = Provenance(p["op"], p["code"], tuple(p["inputs"]), p["params"])
    return WorkspaceEntry(
        name, tensor, provenance, array, tuple(record["notes"]) + tuple(extra),
        record["version"], record["uid"], tuple(record["parent_uids"]),
    )  # fmt: skip


def _view(view: dict, storages: list, what: str) -> torch.Tensor:
    storage = storages[view["storage"]]
    dtype = DTYPES[view["dtype"]]
    shape, stride, offset = view["shape"], view["stride"], view["storage_offset"]
    if all(shape):  # a tensor with elements must lie inside its storage
        last = offset + sum((n - 1) * s for n, s in zip(shape, stride, strict=True))
        if (last + 1) * dtype.itemsize > storage.nbytes():
            raise SessionFileError(
                _("{what} reaches byte {byte:,} of a storage of {size:,} bytes").format(
                    what=what, byte=(last + 1) * dtype.itemsize, size=storage.nbytes()
                )
            )
    try:
        base = torch.empty(0, dtype=dtype, device=storage.device)
        return base.set_(storage, offset, shape, stride)
    except RuntimeError as error:
        raise SessionFileError(
            _("torch refuses the layout of {what} ({error})").format(what=what, error=error)
        ) from None


def _training(values: dict | None) -> TrainingConfig | None:
    if values is None:
        return None
    try:  # types checked and unknown settings refused, then the values
        config = TrainingConfig.from_dict(values)
        config.validate()
    except TrainingConfigError as error:
        raise SessionFileError(
            _("its Training configuration is invalid: {error}").format(error=error)
        ) from None
    return config
