"""Whether torch's own weights-only unpickler would load a pickle, given a list of safe globals:
asked of torch itself (its Unpickler run on the pickle's bytes inside `safe_globals`), never
guessed from a table of its rules. Storages are handed to it on the meta device, so no tensor
data is read; it runs only on pickles whose every global is a data class tensorviz knows."""

from __future__ import annotations

import io

import torch


def torch_refusal(data: bytes, safe_globals: list) -> str | None:
    """None when torch.load(weights_only=True) inside safe_globals(safe_globals) reads `data`
    (a torch.save data.pkl), else torch's reason in one line."""
    from torch import _weights_only_unpickler as weights_only

    storages: dict = {}

    def persistent_load(pid):
        _kind, storage_type, key, _location, numel = pid
        dtype = torch.uint8 if storage_type is torch.UntypedStorage else storage_type.dtype
        if key not in storages:
            nbytes = numel * torch._utils._element_size(dtype)
            storages[key] = torch.storage.TypedStorage(
                wrap_storage=torch.UntypedStorage(nbytes, device="meta"), dtype=dtype,
                _internal=True,
            )  # fmt: skip
        return storages[key]

    unpickler = weights_only.Unpickler(io.BytesIO(data), encoding="utf-8")
    unpickler.persistent_load = persistent_load
    try:
        with torch.serialization.safe_globals(safe_globals):
            unpickler.load()
    except Exception as error:  # noqa: BLE001 — torch's refusal, whatever it raises
        lines = [line for line in str(error).splitlines() if line.strip()]
        return lines[0][:200] if lines else type(error).__name__
    finally:
        torch._utils._sparse_tensors_to_validate.clear()
    return None
