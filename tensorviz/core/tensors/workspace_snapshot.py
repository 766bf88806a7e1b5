"""The state of the workspace's tensors before a script runs, so a run that fails (or is stopped)
can put it back, and a run that succeeds can be undone as one step.

Kept per tensor object: the bytes of its storage (one clone per storage, however many views read
it), its `.grad` (the object and that gradient's bytes: backward accumulates into it in place),
`requires_grad`, its metadata (an alias made by `detach()` keeps the storage, dtype, sizes,
strides and offset: `resize_`, `unsqueeze_`, `set_` or `x.data = ...` are undone through it), and a
copy of the NumPy array kept with the entry. Above a memory budget no bytes are kept, and the
run's summary says in-place writes cannot be undone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

SNAPSHOT_BUDGET_BYTES = 1 << 30  # 1 GiB


def _as_bytes(storage) -> torch.Tensor:
    return torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)


def _storage_id(storage) -> tuple[str, int, int]:
    return (str(storage.device), storage.data_ptr(), storage.nbytes())


@dataclass
class _TensorState:
    tensor: torch.Tensor
    requires_grad: bool
    grad: torch.Tensor | None
    version: int
    alias: torch.Tensor | None = None  # same storage and metadata as the tensor had


def _metadata(t: torch.Tensor) -> tuple:
    if t.layout != torch.strided:
        return (t.layout, t.dtype, tuple(t.shape))
    return (t.dtype, tuple(t.shape), t.stride(), t.storage_offset(), t.untyped_storage().data_ptr())


def _metadata_changed(state: _TensorState) -> bool:
    return state.alias is not None and _metadata(state.tensor) != _metadata(state.alias)


@dataclass
class WorkspaceSnapshot:
    tensors: dict[str, _TensorState] = field(default_factory=dict)  # by workspace name
    storages: dict[tuple, tuple[object, torch.Tensor]] = field(default_factory=dict)
    arrays: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    skipped_bytes: int = 0  # > 0: over budget, no bytes were kept

    @classmethod
    def take(
        cls,
        tensors: dict[str, torch.Tensor],
        arrays: dict[str, np.ndarray] | None = None,
        budget: int = SNAPSHOT_BUDGET_BYTES,
    ) -> WorkspaceSnapshot:
        snapshot = cls()
        storages = {}
        for name, tensor in tensors.items():
            grad = tensor.grad if tensor.is_leaf else None
            snapshot.tensors[name] = _TensorState(
                tensor, tensor.requires_grad, grad, tensor._version, tensor.detach()
            )
            for t in (tensor, grad):
                # meta tensors (the Workbench's device preset) have no bytes to keep
                if t is not None and t.layout == torch.strided and t.device.type != "meta":
                    storage = t.untyped_storage()
                    storages.setdefault(_storage_id(storage), storage)
        total = sum(s.nbytes() for s in storages.values())
        if total > budget:
            snapshot.skipped_bytes = total
        else:
            snapshot.storages = {
                key: (storage, _as_bytes(storage).clone()) for key, storage in storages.items()
            }
        for name, array in (arrays or {}).items():
            snapshot.arrays[name] = (array, array.copy())
        return snapshot

    @property
    def kept_bytes(self) -> int:
        """Memory the copies take (what undoing the run keeps alive)."""
        return sum(saved.numel() for _, saved in self.storages.values()) + sum(
            saved.nbytes for _, saved in self.arrays.values()
        )

    @property
    def complete(self) -> bool:
        return not self.skipped_bytes

    def written_storages(self) -> list[tuple]:
        """Keys of the storages whose bytes differ from the snapshot (written in place)."""
        return [
            key
            for key, (storage, saved) in self.storages.items()
            if storage.nbytes() != saved.numel() or not torch.equal(_as_bytes(storage), saved)
        ]

    def changed_names(self) -> list[str]:
        """Workspace names whose memory, gradient, requires_grad or NumPy array changed."""
        written = set(self.written_storages())
        changed = []
        for name, state in self.tensors.items():
            t = state.tensor
            grad = t.grad if t.is_leaf else None
            touched = (
                _metadata_changed(state)
                or t.requires_grad != state.requires_grad
                or grad is not state.grad
                or t._version != state.version
                or any(
                    _storage_id(x.untyped_storage()) in written
                    for x in (t, grad)
                    if x is not None and x.layout == torch.strided
                )
            )
            if touched:
                changed.append(name)
        for name, (array, saved) in self.arrays.items():
            if name not in changed and not np.array_equal(array, saved, equal_nan=True):
                changed.append(name)
        return changed

    def keep_only_written(self) -> None:
        """Drop the copies of storages the run left alone: only the written ones are needed
        to undo it."""
        written = set(self.written_storages())
        self.storages = {k: v for k, v in self.storages.items() if k in written}
        self.arrays = {
            n: (a, s) for n, (a, s) in self.arrays.items() if not np.array_equal(a, s, True)
        }

    def restore(self) -> None:
        """Put bytes, gradients, requires_grad and NumPy arrays back as they were."""
        with torch.no_grad():
            for storage, saved in self.storages.values():
                if storage.nbytes() != saved.numel():
                    storage.resize_(saved.numel())
                _as_bytes(storage).copy_(saved)
        for state in self.tensors.values():
            t = state.tensor
            if _metadata_changed(state):  # resized, reshaped in place or pointed elsewhere
                try:
                    with torch.no_grad():
                        t.data = state.alias
                except RuntimeError:  # a change torch will not take back; the bytes are back
                    pass
            if not t.is_leaf:
                continue
            try:
                if t.grad is not state.grad:
                    t.grad = state.grad
                if t.requires_grad != state.requires_grad:
                    t.requires_grad_(state.requires_grad)
            except RuntimeError:  # a state torch will not take back; the bytes are restored
                pass
        for array, saved in self.arrays.values():
            np.copyto(array, saved)
