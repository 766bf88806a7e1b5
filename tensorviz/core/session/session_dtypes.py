"""The dtypes a session may name, and those safetensors itself stores."""

from __future__ import annotations

import re

import torch

from tensorviz.core.tensors.identity import dtype_name


def _storable(dtype: torch.dtype) -> bool:
    """Plain element types of whole bytes: not quantized, bit-packed or sub-byte (int1..int7)."""
    name = dtype_name(dtype)
    return not (name.startswith(("q", "bits")) or re.fullmatch(r"u?int[1-7]", name))


# Every dtype torch names, by the name the app uses ("float32"); nothing else is accepted.
DTYPES: dict[str, torch.dtype] = {
    dtype_name(value): value
    for value in vars(torch).values()
    if isinstance(value, torch.dtype) and _storable(value)
}
# What safetensors itself stores (its header's names are the library's business); a storage is
# written as a 1-D tensor of its first tensor's dtype when that is one of these, else as bytes.
SAFETENSORS_DTYPES = {
    torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32,
    torch.int16, torch.int8, torch.uint8, torch.bool, torch.complex64,
}  # fmt: skip
