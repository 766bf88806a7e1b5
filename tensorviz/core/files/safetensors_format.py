"""safetensors files through the `safetensors` library (the maintained Rust implementation).

Opening reads only the header: the library checks it and gives each entry's dtype and shape;
tensors are listed as meta tensors whose bytes are read on demand with plain reads at the data
offsets of the header the library accepted (never through a mapping, see value_reading). Every
dtype torch has is listed with its torch dtype (F8 variants and U16–U64 included); a dtype torch
cannot hold (F4, F6) is listed with its shape and a note and does not sink the other entries.
`__metadata__` is kept. When the library refuses a header, our own check of the format names the
entry and the problem in one sentence (the library's words are kept when ours find nothing).
Writing goes through the library too.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass

import torch

from tensorviz.core.files.file_errors import TensorFileError
from tensorviz.core.files.quoting import quoted
from tensorviz.core.files.value_reading import StoredBytes
from tensorviz.core.translation import _

# bits per element of every dtype the safetensors format defines
DTYPE_BITS = {
    "BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "F8_E4M3FNUZ": 8,
    "F8_E5M2FNUZ": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32,
    "F32": 32, "C64": 64, "F64": 64, "I64": 64, "U64": 64, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6,
}  # fmt: skip


def torch_dtypes() -> dict[str, torch.dtype]:
    """safetensors dtype name → torch dtype, as the library maps them (plus F8_E8M0)."""
    import safetensors.torch

    found = dict(safetensors.torch._TYPES)
    if hasattr(torch, "float8_e8m0fnu"):
        found.setdefault("F8_E8M0", torch.float8_e8m0fnu)
    return found


@dataclass(frozen=True)
class UnreadableEntry:
    """A safetensors entry of a dtype torch cannot hold: listed, never read."""

    dtype: str
    shape: tuple
    nbytes: int

    def __repr__(self) -> str:
        shape = ", ".join(map(str, self.shape))
        return _(
            "[{shape}] {dtype}, {nbytes} bytes — torch has no dtype for {dtype}, so it is "
            "listed but its values cannot be shown"
        ).format(shape=shape, dtype=self.dtype, nbytes=f"{self.nbytes:,}")


def read_safetensors(path: str) -> tuple[dict, dict, dict | None, list[str]]:
    """(name → meta tensor or UnreadableEntry, storage key → StoredBytes, __metadata__, notes)."""
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(path, framework="pt") as handle:
            names = handle.offset_keys()
            described = {}
            for name in names:
                entry = handle.get_slice(name)
                described[name] = (entry.get_dtype(), entry.get_shape())
            metadata = handle.metadata()
    except SafetensorError as refusal:
        raise TensorFileError(explain_refusal(path, str(refusal))) from None
    base, offsets = _data_offsets(path)
    types, tensors, records, notes = torch_dtypes(), {}, {}, []
    for name, (dtype_name, shape) in described.items():
        start, end = offsets[name]
        dtype = types.get(dtype_name)
        if dtype is None:
            tensors[name] = UnreadableEntry(dtype_name, tuple(shape), end - start)
            notes.append(
                _("{name} is {dtype}, which torch cannot hold: listed only.").format(
                    name=quoted(name), dtype=dtype_name
                )
            )
            continue
        tensor = torch.empty(shape, dtype=dtype, device="meta")  # contiguous, its own storage
        records[tensor.untyped_storage()._cdata] = StoredBytes(path, base + start, end - start)
        tensors[name] = tensor
    return tensors, records, metadata, notes


def _data_offsets(path: str) -> tuple[int, dict[str, tuple[int, int]]]:
    """Where the data starts and each entry's [start, end) in it, from the header the library
    has just accepted."""
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
    offsets = {k: tuple(v["data_offsets"]) for k, v in header.items() if k != "__metadata__"}
    return 8 + length, offsets


# --- why the library refused a header -------------------------------------------------------------


def explain_refusal(path: str, library_words: str) -> str:
    """One sentence on what is wrong with a header the library refused."""
    try:
        with open(path, "rb") as f:
            problem = _header_problem(f)
    except OSError:
        problem = None
    if problem:
        return problem
    words = library_words.removeprefix("Error while deserializing header: ")
    return _("The safetensors library refuses this file: {words}.").format(words=quoted(words, 160))


def _header_problem(f) -> str | None:
    size = os.fstat(f.fileno()).st_size
    raw = f.read(8)
    if len(raw) < 8:
        return _("The safetensors file is truncated: it ends inside its header.")
    (header_len,) = struct.unpack("<Q", raw)
    if header_len > size - 8:
        return _(
            "The safetensors header claims {claimed} bytes but only {present} follow: the "
            "file is truncated or not safetensors."
        ).format(claimed=f"{header_len:,}", present=f"{size - 8:,}")
    try:
        header = json.loads(f.read(header_len).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _("The safetensors header is not valid UTF-8 JSON.")
    if not isinstance(header, dict):
        return _("The safetensors header is not a JSON object of named entries.")
    metadata = header.get("__metadata__", {})
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        return _("The safetensors __metadata__ must map strings to strings.")
    data_size = size - 8 - header_len
    spans = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        problem = _entry_problem(info, data_size)
        if problem:
            return _("The safetensors entry {name} {problem}.").format(
                name=quoted(name), problem=problem
            )
        spans.append((*info["data_offsets"], name))
    spans.sort()
    for (_s1, end1, first), (start2, _e2, second) in zip(spans, spans[1:], strict=False):
        if start2 < end1:
            return _(
                "The safetensors entries {first} and {second} overlap in the file's data."
            ).format(first=quoted(first), second=quoted(second))
    return None


def _entry_problem(info, data_size: int) -> str | None:
    if not isinstance(info, dict) or not {"dtype", "shape", "data_offsets"} <= set(info):
        return _("is not an object with dtype, shape and data_offsets")
    bits = DTYPE_BITS.get(info["dtype"]) if isinstance(info["dtype"], str) else None
    if bits is None:
        return _("has dtype {dtype}, which the safetensors format does not define").format(
            dtype=_json(info["dtype"])
        )
    shape, offsets = info["shape"], info["data_offsets"]
    if not isinstance(shape, list) or not all(_natural(n) for n in shape):
        return _("has shape {shape}: it must be a list of non-negative integers").format(
            shape=_json(shape)
        )
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(map(_natural, offsets)):
        return _("has data_offsets {offsets}: they must be two non-negative integers").format(
            offsets=_json(offsets)
        )
    start, end = offsets
    if not start <= end <= data_size:
        return _(
            "has data_offsets [{start}, {end}] outside the file's {size} bytes of data"
        ).format(start=start, end=end, size=f"{data_size:,}")
    numel = 1
    for n in shape:
        numel *= n
    if numel * bits % 8 or end - start != numel * bits // 8:
        needed = numel * bits / 8
        return _(
            "has shape {shape} of {dtype}, which needs {needed} bytes, but its data_offsets "
            "span {span}"
        ).format(
            shape=_json(shape), dtype=info["dtype"], needed=f"{needed:,g}", span=f"{end - start:,}"
        )
    return None


def _json(value) -> str:
    """A header value as the file spells it (JSON), escaped and cut short."""
    return quoted(json.dumps(value), 60, quote=False)


def _natural(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# --- writing ------------------------------------------------------------------------------------


def safetensors_problems(tensors: Mapping[str, torch.Tensor]) -> list[str]:
    """Why safetensors would refuse these tensors (it stores neither sharing nor strides)."""
    supported = set(torch_dtypes().values())
    problems, owners = [], {}
    for name, tensor in tensors.items():
        if not tensor.is_contiguous():
            problems.append(
                _("{name} is not contiguous (stride {stride})").format(
                    name=name, stride=tuple(tensor.stride())
                )
            )
        if tensor.dtype not in supported:
            problems.append(
                _("{name} has dtype {dtype}, which safetensors cannot store").format(
                    name=name, dtype=tensor.dtype
                )
            )
        key = (str(tensor.device), tensor.untyped_storage().data_ptr())
        if tensor.untyped_storage().nbytes() and key in owners:
            problems.append(
                _("{name} shares memory with {other}").format(name=name, other=owners[key])
            )
        owners.setdefault(key, name)
    return problems


def safetensors_refusal(problems: list[str]) -> str:
    """Why safetensors refuses, and the fix."""
    return _(
        "safetensors refuses: {problems}. safetensors stores each tensor as its own "
        "contiguous block: save {code} instead (the sharing is lost), or save as .pt, which "
        "keeps storages and strides."
    ).format(problems="; ".join(problems), code="{name: t.clone().contiguous()}")


def write_safetensors(tensors: Mapping[str, torch.Tensor], stream, metadata=None) -> None:
    """The library's bytes for these tensors, written to `stream` (the atomic writer's)."""
    import safetensors.torch

    problems = safetensors_problems(tensors)
    if problems:
        raise TensorFileError(safetensors_refusal(problems))
    cpu = {name: t.detach().cpu() for name, t in tensors.items()}
    stream.write(safetensors.torch.save(cpu, metadata=metadata))
