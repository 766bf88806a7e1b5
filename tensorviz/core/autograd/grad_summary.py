"""A gradient (or any tensor) as a plain NumPy copy and a short text, so a recorded backward
holds no autograd history and a node or an edge can show its numbers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

SHOWN_VALUES = 6
KEPT_VALUES = 4096  # a gradient's values kept per visit (all of them for small tensors)


def _numel(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


@dataclass(frozen=True)
class GradSummary:
    shape: tuple[int, ...]
    values: np.ndarray  # a float64 copy; flat and cut to KEPT_VALUES for a big gradient

    @classmethod
    def of(cls, tensor: torch.Tensor | None) -> GradSummary | None:
        if tensor is None:
            return None
        shape = tuple(tensor.shape)
        try:
            flat = tensor.detach().reshape(-1)
            if flat.numel() > KEPT_VALUES:
                flat = flat[:KEPT_VALUES]
            if flat.is_complex():
                flat = flat.abs()
            array = flat.to("cpu", torch.float64).numpy().copy()
        except (RuntimeError, TypeError):  # sparse, quantized, meta: keep the shape only
            array = np.full(1, np.nan)
        return cls(shape, array if array.size != _numel(shape) else array.reshape(shape))

    def short_text(self) -> str:
        """A scalar's value, otherwise the shape: what fits on a node or beside an edge."""
        flat = self.values.reshape(-1)
        return f"{flat[0]:.4g}" if flat.size == 1 else str(list(self.shape))

    def text(self) -> str:
        flat = self.values.reshape(-1)
        if flat.size == 1:
            return f"{flat[0]:.4g}"
        shown = ", ".join(f"{v:.3g}" for v in flat[:SHOWN_VALUES])
        more = ", …" if flat.size > SHOWN_VALUES else ""
        return f"{list(self.shape)} [{shown}{more}]"
