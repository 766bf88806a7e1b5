"""The run a trainer callback records into, shared by the callbacks.

Its own run, closed when the trainer ends; or the run already recording in this process (the
user's own `tensorviz.watch(...)`, or `tensorviz watch SCRIPT.py` around the script), which the
callback adds the trainer's model and optimizers to and leaves open for its owner to close.
"""

from __future__ import annotations

import tensorviz
from tensorviz.core.watch.recorder import current_run


class CallbackRun:
    def __init__(self, model, optimizers, *, log_dir, every, histograms_every):
        already = current_run()
        self.owned = already is None or already.closed
        # no optimizer found: None lets the run watch every optimizer holding the parameters
        self.run = tensorviz.watch(
            model, list(optimizers) or None, log_dir=log_dir, every=every,
            histograms_every=histograms_every,
        )  # fmt: skip
        self.folder = self.run.folder

    def log(self, loss=None, **scalars) -> None:
        if not self.run.closed:
            self.run.log(loss=loss, **scalars)

    def end(self, exception: BaseException | None = None) -> None:
        """Close the run if it is the callback's own: "finished", or how `exception` ended it
        ("error" with its line, "interrupted" for Ctrl+C)."""
        if not self.owned or self.run.closed:
            return
        if exception is None:
            self.run.close()
        else:
            self.run.__exit__(type(exception), exception, exception.__traceback__)
