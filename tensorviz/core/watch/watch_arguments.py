"""What tensorviz.watch() accepts: modules (or lists of them), torch optimizers (or wrappers
holding one, or lists), whole numbers of steps; anything else is one TypeError sentence, raised
before a run folder is made."""

from __future__ import annotations

from torch import nn

from tensorviz.core.translation import _
from tensorviz.core.watch.optimizer_watch import real_optimizer


def positive_steps(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TypeError(
            _("tensorviz.watch: {name} must be a whole number of steps, 1 or more, not "
              "{value!r}.").format(name=name, value=value)
        )  # fmt: skip
    return value


def _as_list(value, what: str) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def checked_arguments(model, optimizer) -> tuple[list, list]:
    """(models, [(given, torch optimizer), ...]); TypeError (one sentence) for anything else."""
    models = _as_list(model, "model")
    optimizers = [(o, real_optimizer(o)) for o in _as_list(optimizer, "optimizer")]
    for candidate in models:
        if not isinstance(candidate, nn.Module):
            raise TypeError(
                _("tensorviz.watch takes torch.nn.Module models (or a list of them), not "
                  "{kind}.").format(kind=type(candidate).__name__)
            )  # fmt: skip
    for given, real in optimizers:
        if real is None:
            raise TypeError(
                _("tensorviz.watch takes torch.optim optimizers (or a list of them) as "
                  "optimizer, not {kind}.").format(kind=type(given).__name__)
            )  # fmt: skip
    return models, optimizers
