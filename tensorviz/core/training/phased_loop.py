"""What every trainer of the Training area shares: a training loop written as a generator that
yields after each phase (forward, loss, backward, update, zero_grad), advanced one phase or one
epoch at a time; the history of finished epochs; the stop (divergence or torch's error); and
mini-batches drawn exactly as a plain script draws them::

    order = torch.randperm(n, generator=generator).to(device)
    for start in range(0, n, batch_size):
        index = order[start : start + batch_size]
        x_batch, y_batch = x[index], y[index]

A subclass writes `_run` (the loop, yielding phase names, appending one record per finished
epoch to `history`) and `_describe` (a PhaseRecord of the phase just run).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import torch

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.remedies import Remedy
from tensorviz.core.translation import _

PHASES = ("forward", "loss", "backward", "update", "zero_grad")
MAX_BATCHES_PER_EPOCH = (
    100_000  # each is a Python-level step of ~0.5 ms: an epoch of about a minute
)


def forgotten_zero_grad_code() -> str:
    """What the zero_grad phase shows when the pitfall skips it (a comment, in the language in
    force)."""
    return "# " + _("zero_grad forgotten: .grad keeps accumulating")


@dataclass(frozen=True)
class PhaseRecord:
    """The phase just run, the code it ran and the values it produced (name → number)."""

    epoch: int
    batch: int
    phase: str
    code: str
    values: dict[str, float]


@dataclass(frozen=True)
class Divergence:
    epoch: int
    quantity: str  # the first quantity that stopped being finite (loss, w, b, w.grad, …)
    value: float
    remedies: tuple[Remedy, ...] = field(default=())

    def message(self) -> str:
        return _("{quantity} became {value} at epoch {epoch}; training stopped").format(
            quantity=self.quantity, value=self.value, epoch=self.epoch
        )


class PhasedLoop:
    """One phase or one epoch at a time through the generator `_run`; see the module text."""

    config: TrainingConfig
    device: torch.device

    def _start(self, n_samples: int) -> None:
        """Called by the subclass's __init__ before it builds its tensors: refuses an epoch of
        too many mini-batches, then makes the loop (which runs nothing until it is advanced)."""
        self.n_samples = n_samples
        if self.batches_per_epoch > MAX_BATCHES_PER_EPOCH:
            smallest = math.ceil(n_samples / MAX_BATCHES_PER_EPOCH)
            raise TrainingConfigError(
                _(
                    "{samples:,} samples in batches of {batch} make {updates:,} updates an epoch, "
                    "more than the {most:,} this area runs; use a batch size of at least {smallest}"
                ).format(
                    samples=n_samples,
                    batch=self.config.batch_size,
                    updates=self.batches_per_epoch,
                    most=MAX_BATCHES_PER_EPOCH,
                    smallest=smallest,
                )
            )
        self.history: list = []
        self.divergence: Divergence | None = None
        self.error: ExplainedError | None = None
        self.last_phase: PhaseRecord | None = None
        self._elapsed = 0.0
        self._state: dict = {}

    def _begin_loop(self) -> None:
        """Called by the subclass once its parameters exist: the shuffling generator (seeded as a
        plain script seeds it) and the loop itself."""
        self._generator = torch.Generator().manual_seed(self.config.seed)
        self._steps = self._run()

    # --- public ----------------------------------------------------------------------------------

    @property
    def epoch(self) -> int:
        """Epochs completed."""
        return len(self.history)

    @property
    def finished(self) -> bool:
        return self.epoch >= self.config.epochs or self.stopped

    @property
    def stopped(self) -> bool:
        """Stopped early by divergence or by torch's error."""
        return self.divergence is not None or self.error is not None

    @property
    def started(self) -> bool:
        """At least one phase has run."""
        return bool(self._state)

    @property
    def batch_progress(self) -> tuple[int, int]:
        """(mini-batches completed, mini-batches per epoch) of the epoch in progress."""
        return self._state.get("done", 0), self.batches_per_epoch

    @property
    def batches_per_epoch(self) -> int:
        size = self.config.batch_size
        n = self.n_samples
        return 1 if size is None or size >= n else math.ceil(n / size)

    def step_phase(self) -> PhaseRecord | None:
        """Run the next phase; returns what it did (None once finished)."""
        if self.finished:
            return None
        phase = self._advance()
        if phase is None:
            return None
        self.last_phase = self._describe(phase)
        return self.last_phase

    def step_epoch(self, should_stop: Callable[[], bool] | None = None):
        """Run phases until the current epoch completes; returns its record (None if finished
        or stopped by an error before the record).

        should_stop is asked before every phase (so between mini-batches too): once it answers
        True the epoch is left part-way, None is returned, and the next call continues it."""
        if self.finished:
            return None
        target = self.epoch + 1
        while self.epoch < target and not self.stopped:
            if should_stop is not None and should_stop():
                return None
            if self._advance() is None:
                break
        self.last_phase = None
        return self.history[-1] if self.epoch == target else None

    def run(self) -> list:
        while self.step_epoch() is not None:
            pass
        return self.history

    # --- for subclasses --------------------------------------------------------------------------

    def _run(self) -> Iterator[str]:
        raise NotImplementedError

    def _describe(self, phase: str) -> PhaseRecord:
        raise NotImplementedError

    def _advance(self) -> str | None:
        start = time.perf_counter()
        try:
            return next(self._steps)
        except StopIteration:
            return None
        finally:
            self._elapsed += time.perf_counter() - start

    def _batches(
        self, x: torch.Tensor, y: torch.Tensor
    ) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        size = self.config.batch_size
        n = self.n_samples
        if size is None or size >= n:
            yield x, y  # full batch: the very tensors of a plain script
            return
        order = torch.randperm(n, generator=self._generator).to(self.device)
        for start in range(0, n, size):
            index = order[start : start + size]
            yield x[index], y[index]
