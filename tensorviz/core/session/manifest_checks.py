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
from tensorviz.core.translation import _

MAX_DIMS = 64


@dataclass
class Checked:
    storages: list[dict]
    tensors: list[dict]
    script: str | None
    training: dict | None
    written_by: str


def _bad(problem: str) -> SessionFileError:
    """`problem` names where it is (each message below is one translated sentence)."""
    return SessionFileError(_("its manifest is damaged: {problem}").format(problem=problem))


def _natural(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _get(obj: dict, key: str, kind, where: str, optional: bool = False):
    if key not in obj:
        raise _bad(_("{where} has no {key!r}").format(where=where, key=key))
    value = obj[key]
    if value is None and optional:
        return None
    if kind == "natural":
        if not _natural(value):
            raise _bad(
                _("{where} has {key} = {value!r}, which is not an integer ≥ 0").format(
                    where=where, key=key, value=value
                )
            )
        return value
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        kind_name = getattr(kind, "__name__", kind)
        raise _bad(
            _("{where} has a {key} that is not {kind}").format(where=where, key=key, kind=kind_name)
        )
    return value


def _naturals(obj: dict, key: str, where: str) -> list[int]:
    values = _get(obj, key, list, where)
    if len(values) > MAX_DIMS or not all(_natural(v) for v in values):
        raise _bad(
            _("{where} has a {key} that is not a list of integers ≥ 0").format(where=where, key=key)
        )
    return values


def _strings(obj: dict, key: str, where: str) -> list[str]:
    values = _get(obj, key, list, where)
    if not all(isinstance(v, str) for v in values):
        raise _bad(
            _("{where} has a {key} that is not a list of strings").format(where=where, key=key)
        )
    return values


def checked_manifest(manifest) -> Checked:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise SessionFileError(_("it is not a tensorviz session (its manifest does not say so)"))
    version = manifest.get("format_version")
    if not _natural(version) or version > FORMAT_VERSION:
        raise SessionFileError(
            _(
                "it was written in session format {version!r} by {writer!r}; this tensorviz "
                "reads format {known} and older — update tensorviz"
            ).format(version=version, writer=manifest.get("written_by"), known=FORMAT_VERSION)
        )
    the_file = _("the file")
    storages = [_storage(s, i) for i, s in enumerate(_get(manifest, "storages", list, the_file))]
    tensors = _get(manifest, "tensors", list, the_file)
    names: set[str] = set()
    uids: set[int] = set()
    checked = [_tensor(t, i, storages, names, uids) for i, t in enumerate(tensors)]
    script = _get(manifest, "script", str, the_file, optional=True)
    if script is not None and len(script) > TEXT_MAX_CHARS:
        raise _bad(_("the script is longer than {limit:,} characters").format(limit=TEXT_MAX_CHARS))
    training = _get(manifest, "training", dict, the_file, optional=True)
    written_by = manifest.get("written_by")
    return Checked(
        storages, checked, script, training, written_by if isinstance(written_by, str) else "?"
    )


def _storage(record, index: int) -> dict:
    where = _("storage {index}").format(index=index)
    if not isinstance(record, dict):
        raise _bad(_("{where} is not an object").format(where=where))
    device = _get(record, "device", str, where)
    if not DEVICE_PATTERN.fullmatch(device):
        raise _bad(
            _("{where} names the device {device!r}, which tensorviz does not know").format(
                where=where, device=device[:40]
            )
        )
    nbytes = _get(record, "nbytes", "natural", where)
    dtype = _get(record, "dtype", str, where)
    if DTYPES.get(dtype) not in SAFETENSORS_DTYPES:
        raise _bad(
            _("{where} is stored as {dtype!r}, which safetensors does not store").format(
                where=where, dtype=dtype[:40]
            )
        )
    if nbytes % DTYPES[dtype].itemsize:
        raise _bad(
            _("{where} has {nbytes} bytes, not a whole number of {dtype} elements").format(
                where=where, nbytes=nbytes, dtype=dtype
            )
        )
    checked = {"device": device, "nbytes": nbytes, "dtype": dtype}
    if device != "meta":
        shard = _get(record, "shard", str, where)
        if not SHARD_PATTERN.fullmatch(shard):
            raise _bad(
                _("{where} names the member {shard!r}, which is not a storage shard").format(
                    where=where, shard=shard[:60]
                )
            )
        checked["shard"] = shard
        checked["key"] = _get(record, "key", str, where)
    return checked


def _view(view, where: str, storages: list[dict]) -> dict:
    if not isinstance(view, dict):
        raise _bad(_("{where} is not an object").format(where=where))
    storage = _get(view, "storage", "natural", where)
    if storage >= len(storages):
        raise _bad(
            _("{where} refers to storage {storage}, and there are {count}").format(
                where=where, storage=storage, count=len(storages)
            )
        )
    dtype = _get(view, "dtype", str, where)
    if dtype not in DTYPES:
        raise _bad(
            _("{where} has the dtype {dtype!r}, which torch does not have").format(
                where=where, dtype=dtype[:40]
            )
        )
    shape = _naturals(view, "shape", where)
    stride = _naturals(view, "stride", where)
    if len(stride) != len(shape):
        raise _bad(
            _("{where} has {sizes} sizes but {strides} strides").format(
                where=where, sizes=len(shape), strides=len(stride)
            )
        )
    offset = _get(view, "storage_offset", "natural", where)
    return {"storage": storage, "dtype": dtype, "shape": shape, "stride": stride,
            "storage_offset": offset}  # fmt: skip


def _tensor(record, index: int, storages, names: set, uids: set) -> dict:
    where = _("tensor {index}").format(index=index)
    if not isinstance(record, dict):
        raise _bad(_("{where} is not an object").format(where=where))
    name = _get(record, "name", str, where)
    try:
        Workspace().check_new_name(name)  # the workspace's own rules for a name
    except WorkspaceError as error:
        raise _bad(
            _("{where} cannot be named so: {error}").format(where=where, error=error)
        ) from None
    if name in names:
        raise _bad(
            _("{where} has the name {name!r}, which another tensor has too").format(
                where=where, name=name
            )
        )
    names.add(name)
    where = _("tensor {name!r}").format(name=name)
    uid = _get(record, "uid", "natural", where)
    if uid in uids:
        raise _bad(
            _("{where} has the uid {uid}, which another tensor has too").format(
                where=where, uid=uid
            )
        )
    uids.add(uid)
    parents = _naturals(record, "parent_uids", where)
    view = _view(record.get("tensor"), _("{where} (its view)").format(where=where), storages)
    requires_grad = _get(record, "requires_grad", bool, where)
    dtype = DTYPES[view["dtype"]]
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise _bad(
            _("{where} requires grad with the dtype {dtype}, which cannot").format(
                where=where, dtype=view["dtype"]
            )
        )
    grad = record.get("grad")
    numpy = record.get("numpy")
    provenance = _get(record, "provenance", dict, where)
    p_where = _("the provenance of {name!r}").format(name=name)
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
        "grad": None if grad is None else _view(grad, _grad_of(name), storages),
        "numpy": None if numpy is None else _view(numpy, _array_of(name), storages),
        "provenance": {
            "op": _get(provenance, "op", str, p_where),
            "code": _get(provenance, "code", str, p_where),
            "inputs": _strings(provenance, "inputs", p_where),
            "params": _get(provenance, "params", dict, p_where),
        },
    }


def _grad_of(name: str) -> str:
    return _("the .grad of {name!r}").format(name=name)


def _array_of(name: str) -> str:
    return _("the array of {name!r}").format(name=name)
