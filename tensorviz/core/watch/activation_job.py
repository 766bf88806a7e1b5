"""A step's activation numbers: the samples of the modules' outputs in its last forward
(watched_models.py) reduced all at once (activation_statistics.py), the whole-sample search for
NaN/inf when something was not finite, and at histogram steps the activations' histograms.
Computed at the step on the loop's thread (a thread of its own made the loop wait for the GIL,
record_writer.py)."""

from __future__ import annotations

import numpy as np

from tensorviz.core.watch.activation_statistics import activation_statistics, first_non_finite
from tensorviz.core.watch.cpu_transfer import CpuBatch, add_groups, scatter
from tensorviz.core.watch.histogram_statistics import histograms

_HALF_SMALLEST = 2.0**-14  # float16's smallest normal: below it fewer than 3 digits are kept
_HALF_LARGEST = 65504.0


def half_if_exact_enough(column: np.ndarray) -> np.ndarray:
    """The module column as float16 (2 bytes a value, ~3 significant digits: what a plot or a
    diagnosis reads) when every finite value is 0 or within float16's normal range; else
    float32 unchanged (a huge or tiny activation keeps its digits)."""
    magnitudes = np.abs(column[np.isfinite(column)])
    magnitudes = magnitudes[magnitudes != 0]
    if magnitudes.size and (magnitudes.min() < _HALF_SMALLEST or magnitudes.max() > _HALF_LARGEST):
        return column
    return column.astype(np.float16)


class ActivationJob:
    def __init__(self, outputs: dict, kinds: list[str], names: list[str], *,
                 with_histograms: bool, search_whole: bool = False):  # fmt: skip
        self._outputs = outputs  # module index → sample of its output (forward order)
        self._kinds, self._names = kinds, names
        self._with_histograms = with_histograms
        self._search_whole = search_whole  # the loss or a gradient was not finite
        self.arrays: dict[str, np.ndarray] = {}
        self.non_finite: dict[str, int] = {}
        self.first_module: str | None = None
        self.histogram_tensors: list = []
        self.histogram_counts: np.ndarray | None = None
        self.done = False

    def run(self) -> None:
        outputs, self._outputs = self._outputs, None
        try:
            if outputs:
                self._compute(outputs)
        finally:
            self.done = True

    def _compute(self, outputs: dict) -> None:
        count = len(self._kinds)
        means, stds, fractions = activation_statistics(outputs, self._kinds)
        batch = CpuBatch()
        for groups in (means, stds, fractions):
            add_groups(batch, groups)
        fetched = batch.fetch()
        self.arrays = {"act_mean": scatter(count, means, fetched),
                       "act_std": scatter(count, stds, fetched)}  # fmt: skip
        if fractions:  # without a ReLU, tanh or sigmoid module the column is NaN only
            self.arrays["act_fraction"] = scatter(count, fractions, fetched)
        sampled = self.arrays["act_mean"][list(outputs)]
        if self._search_whole or not np.isfinite(sampled).all():
            self.find_non_finite(outputs)
        self.arrays = {name: half_if_exact_enough(v) for name, v in self.arrays.items()}
        if self._with_histograms:
            named = [("activation", self._names[i], t) for i, t in outputs.items()]
            self.histogram_tensors, self.histogram_counts = histograms(named)

    def find_non_finite(self, outputs: dict) -> None:
        found = first_non_finite(outputs)  # in forward order: outputs keeps the order they came
        if found:
            self.non_finite = {str(i): n for i, n in found.items()}
            self.first_module = self._names[next(iter(found))]
