"""The Runs area in `make screenshots`: a real recorded run, a deep sigmoid MLP trained 300 SGD
steps (core/watch/example_run.py), whose first layers' gradients vanish: the heatmap, the
diagnoses banner, the loss, and the update ratios of the first and last layers."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from tensorviz.core.watch.example_run import record_training

RUN_NAME = "2026-12-02-143012"  # a run folder's name as tensorviz.watch() makes them


def stage_runs(window, app, out_dir: Path, wait_for) -> list[Path]:
    scratch = Path(tempfile.mkdtemp(prefix="tensorviz-runs-"))
    try:
        folder = scratch / "runs" / RUN_NAME
        record_training(folder, steps=300)
        window.open_paths([str(folder)])
        panel = window.panel("runs")
        wait_for(lambda: panel.state is not None and panel.state.kind == "finished")
        wait_for(lambda: bool(panel.run.diagnoses))
        panel.redraw()
        rank = panel.current_rank()
        panel.select_layer(rank.param_names[-2])  # the last layer's weight,
        panel.select_layer(rank.param_names[0], add=True)  # and the first's, whose histograms
        for _round in range(4):
            app.sendPostedEvents()
            app.processEvents()
        path = out_dir / "runs.png"
        window.grab().save(str(path))
        return [path]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
