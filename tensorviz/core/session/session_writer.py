"""Writing a session: every workspace tensor as a view (dtype, shape, stride, offset) of a storage,
each storage once — so views stay views of one memory after a round trip — the storages' bytes in
safetensors members, everything else in manifest.json; one zip, written atomically.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import safetensors.torch
import torch

from tensorviz.core.atomic_files import write_stream_atomically
from tensorviz.core.session.session_dtypes import DTYPES, SAFETENSORS_DTYPES
from tensorviz.core.session.session_format import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    SHARD,
    SHARD_BYTES,
    SessionCancelledError,
)
from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.tensors.workspace import WorkspaceEntry
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.translation import _
from tensorviz.version import __version__

Progress = Callable[[int, int], None]  # (bytes written, bytes in all)


@dataclass
class SessionContents:
    entries: list[WorkspaceEntry]
    script_text: str | None = None
    training: TrainingConfig | None = None


@dataclass
class SessionWritten:
    path: Path
    tensors: int
    storage_bytes: int
    notes: list[str] = field(default_factory=list)  # what could not be kept


class _Storages:
    """Each distinct storage once, in the order first met, with the dtype it is written as."""

    def __init__(self) -> None:
        self.index: dict[tuple, int] = {}
        self.storages: list[torch.UntypedStorage] = []
        self.records: list[dict] = []

    def view(self, tensor: torch.Tensor) -> dict:
        storage = tensor.untyped_storage()
        if tensor.device.type == "meta" or storage.nbytes() == 0:
            key = ("object", storage._cdata)  # no address to compare: the storage itself
        else:
            key = (str(tensor.device), storage.data_ptr())
        if key not in self.index:
            self.index[key] = len(self.storages)
            self.storages.append(storage)
            element = tensor.dtype if tensor.dtype in SAFETENSORS_DTYPES else torch.uint8
            if storage.nbytes() % element.itemsize:
                element = torch.uint8
            self.records.append(
                {
                    "device": str(tensor.device),
                    "nbytes": storage.nbytes(),
                    "dtype": dtype_name(element),
                }  # fmt: skip
            )
        return {
            "storage": self.index[key],
            "dtype": dtype_name(tensor.dtype),
            "shape": list(tensor.shape),
            "stride": list(tensor.stride()),
            "storage_offset": tensor.storage_offset(),
        }


def _left_out(tensor: torch.Tensor) -> str | None:
    if tensor.layout != torch.strided or tensor.is_nested:
        layout = str(tensor.layout).removeprefix("torch.")
        return _("a {layout} tensor (only strided ones are kept)").format(layout=layout)
    if tensor.is_quantized or dtype_name(tensor.dtype) not in DTYPES:
        return _("its dtype {dtype} is not one sessions keep").format(
            dtype=dtype_name(tensor.dtype)
        )
    return None


def _entry_record(entry: WorkspaceEntry, storages: _Storages, notes: list[str]) -> dict | None:
    tensor = entry.tensor
    if (why := _left_out(tensor)) is not None:
        notes.append(_("{name} was left out: {why}.").format(name=entry.name, why=why))
        return None
    made_by = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None
    grad = tensor.grad if tensor.is_leaf and tensor.grad is not None else None
    p = entry.provenance
    return {
        "name": entry.name,
        "uid": entry.uid,
        "parent_uids": list(entry.parent_uids),
        "version": entry.version,
        "notes": list(entry.notes),
        "provenance": {
            "op": p.op,
            "code": p.code,
            "inputs": list(p.inputs),
            "params": _json_params(p.params),
        },  # fmt: skip
        "tensor": storages.view(tensor.detach()),
        "requires_grad": bool(tensor.requires_grad and tensor.is_leaf),
        "grad_fn": made_by,
        "grad": storages.view(grad) if grad is not None and _left_out(grad) is None else None,
        "numpy": _numpy_record(entry, storages, notes),
    }


def _numpy_record(entry: WorkspaceEntry, storages: _Storages, notes: list[str]) -> dict | None:
    """The NumPy array kept with the entry, as a view of its own memory: a from_numpy array
    shares the tensor's storage and stays shared."""
    array = entry.numpy_array
    if array is None:
        return None
    try:
        as_tensor = torch.from_numpy(array)
    except (TypeError, ValueError):  # negative strides, a dtype torch lacks
        try:
            as_tensor = torch.from_numpy(np.ascontiguousarray(array))
        except (TypeError, ValueError):
            notes.append(
                _("The NumPy array of {name} was left out ({dtype}).").format(
                    name=entry.name, dtype=array.dtype
                )
            )
            return None
    return storages.view(as_tensor)


def _json_params(params: dict) -> dict:
    """Parameters as JSON: strings, numbers, booleans, None, lists and string-keyed dicts as they
    are; anything else as its text."""
    return json.loads(json.dumps(params, default=str))


def _storage_bytes(storage: torch.UntypedStorage, dtype: torch.dtype) -> torch.Tensor:
    flat = torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)
    return flat.view(dtype).cpu()  # a copy only off the CPU


def _shards(storages: _Storages) -> list[list[int]]:
    """Storage indices grouped into members of about SHARD_BYTES (meta storages have no bytes)."""
    shards: list[list[int]] = []
    size = SHARD_BYTES
    for index, record in enumerate(storages.records):
        if record["device"] == "meta":
            continue
        if size + record["nbytes"] > SHARD_BYTES and (not shards or shards[-1]):
            shards.append([])
            size = 0
        shards[-1].append(index)
        size += record["nbytes"]
    return shards


def write_session(
    path: str | Path,
    contents: SessionContents,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> SessionWritten:
    """Write the session atomically (a failure or a cancel leaves any old file as it was)."""
    target = Path(path)
    storages, notes = _Storages(), []
    records = [r for e in contents.entries if (r := _entry_record(e, storages, notes))]
    shards = _shards(storages)
    for number, members in enumerate(shards):
        for index in members:
            storages.records[index]["shard"] = SHARD.format(index=number)
            storages.records[index]["key"] = f"storage_{index}"
    total = sum(r["nbytes"] for r in storages.records if r["device"] != "meta")
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "written_by": f"tensorviz {__version__}, torch {torch.__version__}",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "storages": storages.records,
        "tensors": records,
        "script": contents.script_text,
        "training": asdict(contents.training) if contents.training is not None else None,
    }

    def write(stream) -> None:
        done = 0
        with zipfile.ZipFile(stream, "w", allowZip64=True) as archive:
            text = json.dumps(manifest, indent=1, ensure_ascii=False)
            archive.writestr(MANIFEST, text, compress_type=zipfile.ZIP_DEFLATED)
            for number, members in enumerate(shards):
                if cancelled is not None and cancelled():
                    raise SessionCancelledError
                group = {
                    f"storage_{i}": _storage_bytes(storages.storages[i],
                                                   DTYPES[storages.records[i]["dtype"]])
                    for i in members
                }  # fmt: skip
                data = safetensors.torch.save(group, metadata={"format": FORMAT})
                archive.writestr(SHARD.format(index=number), data)  # stored: tensors barely zip
                done += sum(storages.records[i]["nbytes"] for i in members)
                if progress is not None:
                    progress(done, total)

    write_stream_atomically(target, write)
    return SessionWritten(target, len(records), total, notes)
