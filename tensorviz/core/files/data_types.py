"""The short list of globals our unpickler really builds: pure data constructors.

Everything torch's own weights-only loader allows (tensors, storages, dtypes, torch.Size, devices,
the `torch._utils._rebuild_*` functions, OrderedDict, Counter, ...), plus the data types real
checkpoints carry that torch refuses: NumPy arrays, scalars, dtypes and random states,
`argparse.Namespace`, `pathlib` paths, `datetime` values, `defaultdict`, `deque`, a few more of the
standard library, and torch's own enums. None of them runs code from the file: each only turns
plain values into a value. Any other global becomes a stand-in (stand_ins.py).

Tensors are rebuilt by torch's own rebuild functions on storages that live on the meta device
(the file's bytes are read only on demand, see value_reading.py); the few layouts torch cannot
build without their bytes (sparse, quantized, nested) get their storages read first.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import decimal
import enum
import fractions
import functools
import importlib
import pathlib
import sys
import types
import uuid
from collections.abc import Callable
from typing import Protocol

import numpy as np
import torch

from tensorviz.core.files.stand_ins import CallStandIn, GlobalRef
from tensorviz.core.translation import _


class TensorMaterializer(Protocol):
    """What the unpickler offers the rebuild functions that need a tensor's bytes."""

    def real_tensor(self, tensor: torch.Tensor) -> torch.Tensor: ...

    def real_storage(self, storage: torch.storage.TypedStorage) -> torch.storage.TypedStorage: ...

    notes: list[str]


def _torch_allowed() -> dict[str, object]:
    from torch import _weights_only_unpickler as weights_only

    return dict(weights_only._get_allowed_globals())


def torch_allowed_names() -> set[str]:
    """What `torch.load(weights_only=True)` accepts: its own list and the user's safe globals."""
    from torch import _weights_only_unpickler as weights_only

    return set(_torch_allowed()) | set(weights_only._get_user_allowed_globals())


def _numpy_names() -> dict[str, object]:
    found: dict[str, object] = {"numpy.ndarray": np.ndarray, "numpy.dtype": np.dtype}
    for core in ("numpy.core", "numpy._core"):
        found[f"{core}.multiarray._reconstruct"] = np.ndarray.__reduce__(np.zeros(0))[0]
        found[f"{core}.multiarray.scalar"] = _numpy_scalar
        found[f"{core}.numeric._frombuffer"] = _numpy_frombuffer
    for name in dir(np.dtypes):
        if name.endswith("DType"):
            found[f"numpy.dtypes.{name}"] = getattr(np.dtypes, name)
    for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"):  # fmt: skip
        found[f"numpy.{name}"] = getattr(np, name)
    return found


def _numpy_random_names() -> dict[str, object]:
    """NumPy's random states (HF's rng_state.pth): imported only when a file names them."""
    import numpy.random as random

    found: dict[str, object] = {}
    pickle_module = importlib.import_module("numpy.random._pickle")
    for name in ("__randomstate_ctor", "__generator_ctor", "__bit_generator_ctor"):
        found[f"numpy.random._pickle.{name}"] = getattr(pickle_module, name)
    for module, name in (("_mt19937", "MT19937"), ("_pcg64", "PCG64"), ("_pcg64", "PCG64DXSM"),
                         ("_philox", "Philox"), ("_sfc64", "SFC64")):  # fmt: skip
        found[f"numpy.random.{module}.{name}"] = getattr(random, name)
    seeds = importlib.import_module("numpy.random.bit_generator")
    found["numpy.random.bit_generator.SeedSequence"] = seeds.SeedSequence
    found["numpy.random.bit_generator.__pyx_unpickle_SeedSequence"] = getattr(
        seeds, "__pyx_unpickle_SeedSequence", None
    )
    return {k: v for k, v in found.items() if v is not None}


def _numpy_scalar(dtype, data=None):
    if not isinstance(dtype, np.dtype):
        raise TypeError("not a NumPy dtype")
    if dtype.hasobject:
        return data  # an object scalar is the object itself
    if not isinstance(data, bytes | bytearray) or len(data) != dtype.itemsize:
        raise ValueError(f"{len(data or b'')} bytes for a {dtype} scalar")
    return np.frombuffer(bytes(data), dtype=dtype)[0]


def _numpy_frombuffer(buffer, dtype, shape, order):
    if not isinstance(dtype, np.dtype) or dtype.hasobject:
        raise TypeError("not a plain NumPy dtype")
    array = np.frombuffer(bytes(buffer), dtype=dtype)
    return array.reshape(shape, order=order).copy()


_PATHS = {
    "PosixPath": pathlib.PosixPath if sys.platform != "win32" else pathlib.PurePosixPath,
    "WindowsPath": pathlib.WindowsPath if sys.platform == "win32" else pathlib.PureWindowsPath,
    "PurePosixPath": pathlib.PurePosixPath, "PureWindowsPath": pathlib.PureWindowsPath,
    "Path": pathlib.Path, "PurePath": pathlib.PurePath,
}  # fmt: skip


def _standard_library() -> dict[str, object]:
    found: dict[str, object] = {
        f"builtins.{t.__name__}": t
        for t in (
            list,
            dict,
            tuple,
            set,
            frozenset,
            bytearray,
            bytes,
            complex,
            slice,
            range,
            int,
            float,
            str,
            bool,
            object,
        )  # fmt: skip
    }
    found |= {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "collections.defaultdict": collections.defaultdict,
        "collections.deque": collections.deque,
        "argparse.Namespace": argparse.Namespace,
        "types.SimpleNamespace": types.SimpleNamespace,
        "uuid.UUID": uuid.UUID,
        "decimal.Decimal": decimal.Decimal,
        "fractions.Fraction": fractions.Fraction,
    }
    for name in ("datetime", "date", "time", "timedelta", "timezone"):
        found[f"datetime.{name}"] = getattr(datetime, name)
    for module in ("pathlib", "pathlib._local"):
        found |= {f"{module}.{name}": cls for name, cls in _PATHS.items()}
    return found


# Classes whose objects the unpickler may make with cls.__new__ and give state by BUILD.
BUILDABLE_CLASSES = (
    argparse.Namespace, types.SimpleNamespace, uuid.UUID, collections.OrderedDict,
    collections.Counter, collections.defaultdict, dict, list, set, np.ndarray, np.dtype,
    torch.Tensor, torch.nn.Parameter,
)  # fmt: skip


@functools.lru_cache(maxsize=1)
def _static_globals() -> dict[str, object]:
    found = _torch_allowed()
    found |= _standard_library()
    found |= _numpy_names()
    found |= {f"torch.{name}": getattr(torch, name) for name in _TORCH_CONSTANTS}
    found |= _torchscript_helpers()
    return found


def data_globals(materializer: TensorMaterializer) -> dict[str, object]:
    """Qualified name → the real object, for one unpickling (rebuilders bound to its data)."""
    return {**_static_globals(), **_rebuilders(materializer)}


_TORCH_CONSTANTS = (
    "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "jagged",
    "contiguous_format", "channels_last", "channels_last_3d", "preserve_format",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
    "uint16", "uint32", "uint64", "Generator",
)  # fmt: skip


def _torchscript_helpers() -> dict[str, object]:
    import torch.jit._pickle as jit_pickle

    names = ("build_intlist", "build_tensorlist", "build_doublelist", "build_boollist",
             "build_tensor_from_id", "restore_type_tag")  # fmt: skip
    return {f"torch.jit._pickle.{n}": getattr(jit_pickle, n) for n in names}


# torch's own names that only exist once a torch module is imported (torch.load asks the user to
# import them; we import them when a file names them: nested jagged tensors)
LAZY_TORCH_NAMES = {
    "torch.nested._internal.nested_tensor.NestedTensor",
    "torch._dynamo.decorators._DimRange",
}


def lazy_name(full: str):
    """A known name that is imported only when a file names it, or None."""
    if full.startswith("numpy.random."):
        return _numpy_random_names().get(full)
    if full not in LAZY_TORCH_NAMES:
        return None
    module, _dot, name = full.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 — not in this torch: a stand-in like any other name
        return None


def torch_enum(ref: GlobalRef):
    """A torch-owned Enum class named by the file (calling it only looks a member up), or None.
    Only modules inside torch are imported for this: code the user installed with torch."""
    if not ref.module.startswith("torch.") or "<" in ref.name:
        return None
    try:
        value = importlib.import_module(ref.module)
        for part in ref.name.split("."):
            value = vars(value)[part]
    except Exception:  # noqa: BLE001 — not importable or not there: a stand-in, as for any name
        return None
    return value if isinstance(value, enum.EnumMeta) else None


def _rebuilders(m: TensorMaterializer) -> dict[str, Callable]:
    """torch's rebuild functions, wrapped where a layout needs the tensor's bytes."""
    utils = torch._utils

    def real(value):
        if isinstance(value, torch.Tensor):
            return m.real_tensor(value)
        if isinstance(value, tuple | list):
            return type(value)(real(v) for v in value)
        if isinstance(value, dict):
            return {k: real(v) for k, v in value.items()}
        return value

    def qtensor(storage, offset, size, stride, quantizer, requires_grad, hooks):
        return utils._rebuild_qtensor(
            m.real_storage(storage), offset, size, stride, real(quantizer), requires_grad, hooks
        )

    def sparse(layout, data):
        pending = utils._sparse_tensors_to_validate
        saved = list(pending)
        pending.clear()
        try:
            tensor = utils._rebuild_sparse_tensor(layout, real(data))
            with torch.sparse.check_sparse_tensor_invariants():
                utils._validate_loaded_sparse_tensors()  # indices inside bounds, or it raises
        finally:
            pending[:] = saved
        return tensor

    def nested(buffer, sizes, strides, offsets):
        return utils._rebuild_nested_tensor(real(buffer), real(sizes), real(strides), real(offsets))

    def from_numpy(data, dtype, device, requires_grad):
        tensor = torch.from_numpy(data).to(dtype=dtype)
        m.notes.append(_("A tensor saved on {device} is shown on cpu.").format(device=device))
        return tensor.requires_grad_(requires_grad)

    def from_cpu_tensor(data, dtype, device, requires_grad):
        m.notes.append(_("A tensor saved on {device} is shown on cpu.").format(device=device))
        return real(data).to(dtype=dtype).requires_grad_(requires_grad)

    def wrapper_subclass(cls, *args):
        if isinstance(cls, GlobalRef):
            return CallStandIn(GlobalRef("torch._utils", "_rebuild_wrapper_subclass"), (cls, *args))
        return utils._rebuild_wrapper_subclass(cls, *args)

    def from_type(func, new_type, args, state):
        tensor = func(*args)
        if isinstance(new_type, GlobalRef) or not isinstance(tensor, torch.Tensor):
            m.notes.append(
                _("A tensor saved as {type} (a tensor subclass) is shown as torch.Tensor.").format(
                    type=repr(new_type)
                )
            )
            return tensor
        if type(tensor) is not new_type:
            tensor = tensor.as_subclass(new_type)
        return utils._set_obj_state(tensor, state) if state else tensor

    def jagged(kwargs):
        from torch.nested._internal.nested_tensor import _rebuild_njt

        return _rebuild_njt(real(kwargs))

    return {
        "torch.nested._internal.nested_tensor._rebuild_njt": jagged,
        "torch._utils._rebuild_qtensor": qtensor,
        "torch._utils._rebuild_sparse_tensor": sparse,
        "torch._utils._rebuild_nested_tensor": nested,
        "torch._utils._rebuild_device_tensor_from_numpy": from_numpy,
        "torch._utils._rebuild_device_tensor_from_cpu_tensor": from_cpu_tensor,
        "torch._utils._rebuild_wrapper_subclass": wrapper_subclass,
        "torch._tensor._rebuild_from_type_v2": from_type,
    }
