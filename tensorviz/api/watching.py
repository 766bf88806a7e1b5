"""`tensorviz.watch(model, optimizer)`: record your own training loop into a run folder that the
app follows live (or opens later) and `tensorviz report` reads. No Qt is imported; torch is
imported when watch() is called."""

from __future__ import annotations

from tensorviz.core.watch.inspectors import use_inspector


def _inspect_paused_step(gate):
    from tensorviz.api.paused_window import inspect_paused_step

    return inspect_paused_step(gate)


# "Inspect this step" opens the paused step in the API's window, for every run of this process:
# tensorviz.watch()'s and `tensorviz watch SCRIPT`'s alike (importing any part of tensorviz
# imports this module; core, which makes the runs, cannot import the API).
use_inspector(_inspect_paused_step)


def watch(model, optimizer=None, *, log_dir=None, every=1, histograms_every=50,
          update_ratio_every=10, view=False):  # fmt: skip
    """Watch `model` (a module or a list; DataParallel, DistributedDataParallel and
    torch.compile wrappers are seen through) and `optimizer` (one or a list; None: every
    optimizer that holds the model's parameters). Returns the WatchRun: `run.log(loss=...,
    **scalars)`, `run.close()` (or `with tensorviz.watch(...) as run:`), `run.folder`.

    Statistics every `every` steps, histograms every `histograms_every` steps, the update ratio
    every `update_ratio_every` steps; the run folder goes under `log_dir` (default runs/).
    `view=True` opens the viewer on the run in a process of its own where there is a display
    (else one line says where the run folder is). Called again while a run is active, it adds
    to that run."""
    from tensorviz.core.watch.recorder import WatchRun, checked_arguments, current_run

    checked_arguments(model, optimizer)
    run = current_run()
    if run is None or run.closed:
        run = WatchRun(log_dir=log_dir, every=every, histograms_every=histograms_every,
                       update_ratio_every=update_ratio_every)  # fmt: skip
        if view:
            from tensorviz.core.watch.viewer_launch import open_viewer

            open_viewer(run.folder)
    return run.watch(model, optimizer)
