"""Diagnosing a live run as it grows gives what diagnosing the whole run at once gives: the rules
keep their state between calls and read only the new rows; the window logic matches a plain
loop over every start."""

import shutil

import numpy as np
import pytest
import torch
from recorded_loops import mlp, record_loop, regression_batches
from torch import nn

from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.diagnoses import diagnose
from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.series_windows import HeldTracker, row_chunks


def _first_held_by_loop(held, window):
    rows, columns = held.shape
    window = min(window, rows)
    first = np.full(columns, -1)
    for column in range(columns):
        for start in range(rows - window + 1):
            if held[start : start + window, column].all():
                first[column] = start
                break
    return first


@pytest.mark.parametrize("seed", range(6))
def test_held_tracker_matches_a_loop_whatever_the_chunks(seed):
    rng = np.random.default_rng(seed)
    held = rng.random((int(rng.integers(1, 60)), 7)) < 0.8
    tracker = HeldTracker(7, 5)
    start = 0
    while start < len(held):
        stop = start + int(rng.integers(1, 9))
        tracker.feed(held[start:stop])
        start = stop
    np.testing.assert_array_equal(tracker.first(), _first_held_by_loop(held, 5))


@pytest.mark.parametrize("lr", [10.0, 0.1])
def test_a_growing_run_is_diagnosed_as_the_whole_run(tmp_path, lr):
    model = mlp([16] + [32] * 6 + [4], nn.Sigmoid if lr < 1 else nn.ReLU)
    record_loop(tmp_path / "whole", model, torch.optim.SGD(model.parameters(), lr=lr),
                regression_batches(16, 4), nn.functional.mse_loss, 14, update_every=3)  # fmt: skip
    whole = diagnose(RunReader(tmp_path / "whole").ranks[0])
    assert whole

    live = tmp_path / "live"
    shutil.copytree(tmp_path / "whole", live)
    steps = (live / "rank0" / rf.STEPS_FILE).read_bytes()
    (live / "rank0" / rf.STEPS_FILE).write_bytes(b"")
    events = (live / "rank0" / rf.EVENTS_FILE).read_bytes()
    (live / "rank0" / rf.EVENTS_FILE).write_bytes(b"")  # not ended: a tail is waited for
    reader = RunReader(live)
    for part in row_chunks(len(steps), size=len(steps) // 9 + 1):  # cut mid-frame too
        with open(live / "rank0" / rf.STEPS_FILE, "ab") as handle:
            handle.write(steps[part])
        reader.refresh()
        diagnose(reader.ranks[0])
    (live / "rank0" / rf.EVENTS_FILE).write_bytes(events)
    reader.refresh()
    assert reader.problems == [] and reader.ranks[0].steps == list(range(1, 15))
    assert diagnose(reader.ranks[0]) == whole
