"""Memory a freed tensor leaves behind, given back to the operating system at once.

glibc raises its mmap threshold each time a big block is freed, so after the first pair the
copies of further tensors come from the heap, and freed heap blocks stay resident until the top
of the heap is trimmed: measured here, comparing two 1 GB checkpoints of 10 MB tensors peaked
50-90 MB above the two tensors a pair needs. `malloc_trim(0)` after each freed pair keeps the
peak at what is alive. Elsewhere than glibc (macOS, musl) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools


@functools.cache
def _trim():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):
        return None


def give_back_freed_memory() -> None:
    trim = _trim()
    if trim is not None:
        trim(0)
