"""Every field of a session's manifest.json checked before anything is built from it: kinds,
ranges, names the workspace accepts, dtypes and devices torch knows, references that exist.
The first problem found is the sentence the user reads."""

from __future__ import annotations

from dataclasses import dataclass

from tensorviz.core.session.session_dtypes import DTYPES, SAFETENSORS_DTYPES
from tensorviz.core.session.session_format import (
    DEVICE_PATTERN,
    FORMAT,
    FORMAT_VERSION,
    SHARD_PATTERN,
    TEXT_MAX_CHARS,
    SessionFileError,
)
from tensorviz.core.tensors.workspace import Workspace, WorkspaceError

MAX_DIMS = 64


@dataclass
class Checked:
    storages: list[dict]
    tensors: list[dict]
    script: str | None
    training: dict | None
    written_by: str


def _bad(where: str, problem: str) -> SessionFileError:
    return SessionFileError(f"its manifest is damaged: {where} {problem}")


def _natural(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _get(obj: dict, key: str, kind, where: str, optional: bool = False):
    if key not in obj:
        raise _bad(where, f"has no {key!r}")
    value = obj[key]
    if value is None and optional:
        return None
    if kind == "natural":
        if not _natural(value):
            raise _bad(where, f"has {key} = {value!r}, which is not an integer ≥ 0")
        return value
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _bad(where, f"has a {key} that is not {getattr(kind, '__name__', kind)}")
    return value


def _naturals(obj: dict, key: str, where: str) -> list[int]:
    values = _get(obj, key, list, where)
    if len(values) > MAX_DIMS or not all(_natural(v) for v in values):
        raise _bad(where, f"has a {key} that is not a list of integers ≥ 0")
    return values


def _strings(obj: dict, key: str, where: str) -> list[str]:
    values = _get(obj, key, list, where)
    if not all(isinstance(v, str) for v in values):
        raise _bad(where, f"has a {key} that is not a list of strings")
    return values


def checked_manifest(manifest) -> Checked:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise SessionFileError("it is not a tensorviz session (its manifest does not say so)")
    version = manifest.get("format_version")
    if not _natural(version) or version > FORMAT_VERSION:
        raise SessionFileError(
            f"it was written in session format {version!r} by {manifest.get('written_by')!r}; "
            f"this tensorviz reads format {FORMAT_VERSION} and older — update tensorviz"
        )
    storages = [_storage(s, i) for i, s in enumerate(_get(manifest, "storages", list, "the file"))]
    tensors = _get(manifest, "tensors", list, "the file")
    names: set[str] = set()
    uids: set[int] = set()
    checked = [_tensor(t, i, storages, names, uids) for i, t in enumerate(tensors)]
    script = _get(manifest, "script", str, "the file", optional=True)
    if script is not None and len(script) > TEXT_MAX_CHARS:
        raise _bad("the script", f"is longer than {TEXT_MAX_CHARS:,} characters")
    training = _get(manifest, "training", dict, "the file", optional=True)
    written_by = manifest.get("written_by")
    return Checked(
        storages, checked, script, training, written_by if isinstance(written_by, str) else "?"
    )


def _storage(record, index: int) -> dict:
    where = f"storage {index}"
    if not isinstance(record, dict):
        raise _bad(where, "is not an object")
    device = _get(record, "device", str, where)
    if not DEVICE_PATTERN.fullmatch(device):
        raise _bad(where, f"names the device {device[:40]!r}, which tensorviz does not know")
    nbytes = _get(record, "nbytes", "natural", where)
    dtype = _get(record, "dtype", str, where)
    if DTYPES.get(dtype) not in SAFETENSORS_DTYPES:
        raise _bad(where, f"is stored as {dtype[:40]!r}, which safetensors does not store")
    if nbytes % DTYPES[dtype].itemsize:
        raise _bad(where, f"has {nbytes} bytes, not a whole number of {dtype} elements")
    checked = {"device": device, "nbytes": nbytes, "dtype": dtype}
    if device != "meta":
        shard = _get(record, "shard", str, where)
        if not SHARD_PATTERN.fullmatch(shard):
            raise _bad(where, f"names the member {shard[:60]!r}, which is not a storage shard")
        checked["shard"] = shard
        checked["key"] = _get(record, "key", str, where)
    return checked


def _view(view, where: str, storages: list[dict]) -> dict:
    if not isinstance(view, dict):
        raise _bad(where, "is not an object")
    storage = _get(view, "storage", "natural", where)
    if storage >= len(storages):
        raise _bad(where, f"refers to storage {storage}, and there are {len(storages)}")
    dtype = _get(view, "dtype", str, where)
    if dtype not in DTYPES:
        raise _bad(where, f"has the dtype {dtype[:40]!r}, which torch does not have")
    shape = _naturals(view, "shape", where)
    stride = _naturals(view, "stride", where)
    if len(stride) != len(shape):
        raise _bad(where, f"has {len(shape)} sizes but {len(stride)} strides")
    offset = _get(view, "storage_offset", "natural", where)
    return {"storage": storage, "dtype": dtype, "shape": shape, "stride": stride,
            "storage_offset": offset}  # fmt: skip


def _tensor(record, index: int, storages, names: set, uids: set) -> dict:
    where = f"tensor {index}"
    if not isinstance(record, dict):
        raise _bad(where, "is not an object")
    name = _get(record, "name", str, where)
    try:
        Workspace().check_new_name(name)  # the workspace's own rules for a name
    except WorkspaceError as error:
        raise _bad(where, f"cannot be named so: {error}") from None
    if name in names:
        raise _bad(where, f"has the name {name!r}, which another tensor has too")
    names.add(name)
    where = f"tensor {name!r}"
    uid = _get(record, "uid", "natural", where)
    if uid in uids:
        raise _bad(where, f"has the uid {uid}, which another tensor has too")
    uids.add(uid)
    parents = _naturals(record, "parent_uids", where)
    view = _view(record.get("tensor"), f"{where} (its view)", storages)
    requires_grad = _get(record, "requires_grad", bool, where)
    dtype = DTYPES[view["dtype"]]
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise _bad(where, f"requires grad with the dtype {view['dtype']}, which cannot")
    grad = record.get("grad")
    numpy = record.get("numpy")
    provenance = _get(record, "provenance", dict, where)
    p_where = f"the provenance of {name!r}"
    return {
        "name": name,
        "uid": uid,
        "parent_uids": parents,
        "version": _get(record, "version", "natural", where),
        "notes": _strings(record, "notes", where),
        "tensor": view,
        "tensor_device": storages[view["storage"]]["device"],
        "requires_grad": requires_grad,
        "grad_fn": _get(record, "grad_fn", str, where, optional=True),
        "grad": None if grad is None else _view(grad, f"the .grad of {name!r}", storages),
        "numpy": None if numpy is None else _view(numpy, f"the array of {name!r}", storages),
        "provenance": {
            "op": _get(provenance, "op", str, p_where),
            "code": _get(provenance, "code", str, p_where),
            "inputs": _strings(provenance, "inputs", p_where),
            "params": _get(provenance, "params", dict, p_where),
        },
    }
