"""Reading safetensors files: the header checked as the format requires (a JSON object of
entries, each a known dtype, a shape of non-negative integers and data offsets inside the data,
exactly as long as the shape needs, no two overlapping), then the data memory-mapped.
Anything else is one sentence naming the entry and the problem.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from collections.abc import Mapping

import torch

from tensorviz.core.files.file_errors import TensorFileError

SAFETENSORS_DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
    "U8": torch.uint8, "BOOL": torch.bool, "C64": torch.complex64,
}  # fmt: skip
_SAFETENSORS_NAMES = {dtype: name for name, dtype in SAFETENSORS_DTYPES.items()}


def read_safetensors(path: str | os.PathLike) -> dict[str, torch.Tensor]:
    with open(path, "rb") as f:
        base, entries = safetensors_header(f)
        if not entries:
            return {}
        buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)  # private: writes stay here
    result: dict[str, torch.Tensor] = {}
    for name, dtype, shape, start, end in entries:
        count = (end - start) // _element_size(dtype)
        if count == 0:
            result[name] = torch.empty(shape, dtype=dtype)
        else:
            flat = torch.frombuffer(buffer, dtype=dtype, count=count, offset=base + start)
            result[name] = flat.reshape(shape)
    return result


def safetensors_records(path: str | os.PathLike) -> dict[int, int]:
    """File offset → bytes of every non-empty tensor of a safetensors file."""
    with open(path, "rb") as f:
        base, entries = safetensors_header(f)
    return {base + start: end - start for _n, _d, _s, start, end in entries if end > start}


def _element_size(dtype: torch.dtype) -> int:
    return torch.empty(0, dtype=dtype).element_size()


def safetensors_header(f) -> tuple[int, list[tuple[str, torch.dtype, tuple, int, int]]]:
    """(where the data starts, [(name, dtype, shape, start, end)]) of an open safetensors file,
    checked as the safetensors format requires; otherwise one sentence naming the problem."""
    size = os.fstat(f.fileno()).st_size
    raw = f.read(8)
    if len(raw) < 8:
        raise TensorFileError("The safetensors file is truncated: it ends inside its header.")
    (header_len,) = struct.unpack("<Q", raw)
    if header_len > size - 8:
        raise TensorFileError(
            f"The safetensors header claims {header_len:,} bytes but only {size - 8:,} follow: "
            "the file is truncated or not safetensors."
        )
    try:
        header = json.loads(f.read(header_len).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise TensorFileError("The safetensors header is not valid UTF-8 JSON.") from None
    if not isinstance(header, dict):
        raise TensorFileError("The safetensors header is not a JSON object of named entries.")
    metadata = header.get("__metadata__", {})
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        raise TensorFileError("The safetensors __metadata__ must map strings to strings.")
    data_size = size - 8 - header_len
    entries = [
        _safetensors_entry(name, info, data_size)
        for name, info in header.items()
        if name != "__metadata__"
    ]
    spans = sorted((start, end, name) for name, _d, _s, start, end in entries if end > start)
    for (_s1, end1, first), (start2, _e2, second) in zip(spans, spans[1:], strict=False):
        if start2 < end1:
            raise TensorFileError(
                f"The safetensors entries {first!r} and {second!r} overlap in the file's data."
            )
    return 8 + header_len, entries


def _safetensors_entry(name: str, info, data_size: int):
    def bad(problem: str) -> TensorFileError:
        return TensorFileError(f"The safetensors entry {name!r} {problem}.")

    if not isinstance(info, dict) or not {"dtype", "shape", "data_offsets"} <= set(info):
        raise bad("is not an object with dtype, shape and data_offsets")
    dtype = SAFETENSORS_DTYPES.get(info["dtype"]) if isinstance(info["dtype"], str) else None
    if dtype is None:
        known = ", ".join(SAFETENSORS_DTYPES)
        raise bad(
            f"has dtype {_json(info['dtype'])}, which tensorviz does not read (it reads {known})"
        )
    shape, offsets = info["shape"], info["data_offsets"]
    if not isinstance(shape, list) or not all(_natural(n) for n in shape):
        raise bad(f"has shape {_json(shape)}: it must be a list of non-negative integers")
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(map(_natural, offsets)):
        raise bad(f"has data_offsets {_json(offsets)}: they must be two non-negative integers")
    start, end = offsets
    if not start <= end <= data_size:
        raise bad(
            f"has data_offsets [{start}, {end}] outside the file's {data_size:,} bytes of data"
        )
    numel = 1
    for n in shape:
        numel *= n
    needed = numel * _element_size(dtype)
    if end - start != needed:
        raise bad(
            f"has shape {_json(shape)} of {info['dtype']}, which needs {needed:,} bytes, but its "
            f"data_offsets span {end - start:,}"
        )
    return name, dtype, tuple(shape), start, end


def _json(value) -> str:
    """A header value as the file spells it (JSON), cut short if long."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _natural(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# --- writing ------------------------------------------------------------------------------------


def safetensors_problems(tensors: Mapping[str, torch.Tensor]) -> list[str]:
    """Why safetensors would refuse these tensors (it stores neither sharing nor strides)."""
    problems, owners = [], {}
    for name, tensor in tensors.items():
        if not tensor.is_contiguous():
            problems.append(f"{name} is not contiguous (stride {tuple(tensor.stride())})")
        if tensor.dtype not in _SAFETENSORS_NAMES:
            problems.append(f"{name} has dtype {tensor.dtype}, which safetensors cannot store")
        key = (str(tensor.device), tensor.untyped_storage().data_ptr())
        if tensor.untyped_storage().nbytes() and key in owners:
            problems.append(f"{name} shares memory with {owners[key]}")
        owners.setdefault(key, name)
    return problems


SAFETENSORS_FIX = (
    "safetensors stores each tensor as its own contiguous block: save "
    "{name: t.clone().contiguous()} instead (the sharing is lost), or save as .pt, which keeps "
    "storages and strides."
)


def write_safetensors(tensors: Mapping[str, torch.Tensor], stream) -> None:
    problems = safetensors_problems(tensors)
    if problems:
        raise TensorFileError(f"safetensors refuses: {'; '.join(problems)}. {SAFETENSORS_FIX}")
    header, blobs, offset = {}, [], 0
    for name, tensor in tensors.items():
        data = tensor.detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()
        header[name] = {
            "dtype": _SAFETENSORS_NAMES[tensor.dtype],
            "shape": list(tensor.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # data starts 8-byte aligned
    stream.write(struct.pack("<Q", len(text)))
    stream.write(text)
    for blob in blobs:
        stream.write(blob)
