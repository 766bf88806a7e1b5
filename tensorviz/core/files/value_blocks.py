"""A file-backed tensor's values streamed in blocks, for callers that pass over every element
once and keep nothing (the checkpoint comparison, hashing for renames).

A block is a 1-D run of the tensor's elements in row-major order, read with plain reads (never a
memory mapping, as in value_reading.py) into one small buffer that the next block overwrites:
memory stays at the size of a block, whatever the tensor's size. Only a tensor that lies in its
file as one row-major run of bytes can be streamed — contiguous, in a plain stored record, in
the machine's byte order; anything else (a transposed view, a DCP tensor assembled from chunks,
a big-endian file, a tensor not read from a file) gets None, and the caller reads it whole.
The file's stamp is checked when it is opened and after the last block, as for a whole read.
"""

from __future__ import annotations

from collections.abc import Iterator

import torch

from tensorviz.core.files.value_reading import (
    OpenFiles,
    ReadBuffer,
    StoredBytes,
    read_bytes,
    storage_key,
)


def streamable_record(tensor, records: dict | None) -> StoredBytes | None:
    """The record of the bytes `tensor` (a meta tensor of a listing) reads in row-major order
    as one run, or None when its values cannot be streamed."""
    if not isinstance(tensor, torch.Tensor) or tensor.layout != torch.strided:
        return None
    record = (records or {}).get(storage_key(tensor))
    if type(record) is not StoredBytes or record.swap_dtype is not None:
        return None
    if tensor.is_conj() or tensor.is_neg() or not tensor.is_contiguous():
        return None
    end = (tensor.storage_offset() + tensor.numel()) * tensor.element_size()
    return record if end <= record.nbytes else None


def value_blocks(
    tensor: torch.Tensor,
    record: StoredBytes,
    stamps: dict[str, tuple],
    elements: int,
    into: ReadBuffer,
) -> Iterator[torch.Tensor]:
    """`tensor`'s values, `elements` at a time (the last block may be shorter), each a 1-D
    tensor of its dtype in `into`'s memory, valid until the next block. Raises
    FileChangedError (one sentence) when the file changed or shrank."""
    size = tensor.element_size()
    start = record.offset + tensor.storage_offset() * size
    total = tensor.numel()
    files = OpenFiles(stamps)
    finished = False
    try:
        f = files.open(record.path)
        for first in range(0, total, elements):
            count = min(elements, total - first)
            raw = read_bytes(f, start + first * size, count * size, record.path, into)
            yield raw.view(tensor.dtype)
        finished = True
    finally:
        files.close(check=finished)  # a stream left early (cancel) closes without a verdict
