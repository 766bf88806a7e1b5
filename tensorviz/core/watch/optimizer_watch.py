"""What the run knows about each optimizer it watches: its index, its step count (from 1), the
schema positions of its parameters (refreshed when its param groups or the schema change), and
the step in flight. Also how an optimizer is recognised: torch's, or a wrapper holding one
(Lightning's LightningOptimizer)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch


def real_optimizer(candidate):
    """The torch.optim.Optimizer `candidate` is or wraps; None when it is neither."""
    for _depth in range(4):
        if isinstance(candidate, torch.optim.Optimizer):
            return candidate
        candidate = getattr(candidate, "optimizer", None) or getattr(candidate, "_optimizer", None)
        if candidate is None:
            return None
    return None


@dataclass
class WatchedOptimizer:
    optimizer: torch.optim.Optimizer
    index: int
    step: int = 0
    started: bool = False  # between the statistics of a step and its post-hook
    handles: list = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  # schema positions of its parameters
    params: list = field(default_factory=list)
    _key: tuple | None = None
    _schema: int = -1
    update: tuple | None = None  # (pending step, rows, params, weights before) at ratio steps

    def group_key(self) -> tuple:
        return tuple(len(group["params"]) for group in self.optimizer.param_groups)

    def all_params(self) -> list:
        return [p for group in self.optimizer.param_groups for p in group["params"]]

    def rows_for(self, schema_version: int, positions: dict[int, int]) -> list[int]:
        """The schema positions of this optimizer's parameters (`positions`: id → position)."""
        key = self.group_key()
        if key != self._key or schema_version != self._schema:
            self._key, self._schema = key, schema_version
            rows, params, taken = [], [], set()
            for param in self.all_params():
                row = positions.get(id(param))
                if row is not None and row not in taken:
                    taken.add(row)
                    rows.append(row)
                    params.append(param)
            self.rows, self.params = rows, params
        return self.rows

    def remove_hooks(self) -> None:
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
