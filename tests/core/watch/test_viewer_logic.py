"""What the Runs area computes without a screen: the heatmap's columns (the largest gradient
norm of each block of steps, NaN ignored) however the steps arrive, its log colour levels, the
histograms re-binned over time, the run's state, and the rows a follower sends, all against
NumPy and torch."""

import warnings

import numpy as np
import pytest
import torch

from tensorviz.core.watch.example_run import deep_sigmoid_mlp, record_training
from tensorviz.core.watch.heatmap_bins import StepBins, level_index, log_image, row_label_stride
from tensorviz.core.watch.histogram_image import histogram_image
from tensorviz.core.watch.run_reader import HistogramRecord, RunReader
from tensorviz.core.watch.run_state import run_state
from tensorviz.core.watch.run_updates import FollowedRun, UpdateCollector


def _expected_bins(values, width):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (an all-NaN block: NaN, as we say)
        return np.array([np.nanmax(values[i : i + width], axis=0)
                         for i in range(0, len(values), width)])  # fmt: skip


@pytest.mark.parametrize("pieces", [[1000], [1, 2, 3, 994], [7] * 142 + [6], [513, 487]])
def test_step_bins_are_the_nan_ignoring_max_of_each_block_however_steps_arrive(pieces):
    values = np.random.default_rng(0).lognormal(size=(1000, 5)).astype(np.float32)
    values[3, 1] = values[400:700, 2] = np.nan
    bins = StepBins(max_bins=64)
    start = 0
    for size in pieces:
        bins.extend(values[start : start + size])
        start += size
    assert bins.width == 16 and bins.columns == 63 and bins.steps == 1000
    np.testing.assert_array_equal(bins.values, _expected_bins(values, 16))
    assert bins.step_range(62) == (992, 1000)


def test_step_bins_take_columns_a_later_schema_adds():
    bins = StepBins(max_bins=8)
    bins.extend(np.ones((3, 2), np.float32))
    bins.extend(np.full((3, 3), 2, np.float32))
    assert bins.rows == 3 and bins.columns == 6
    assert np.isnan(bins.values[:3, 2]).all() and (bins.values[3:, 2] == 2).all()


def test_log_image_levels_span_the_finite_logs_and_zero_is_the_lowest_colour():
    values = np.array([[1e-8, 1e-2, 0.0, np.nan, 10.0]], np.float32)
    logs, levels = log_image(values)
    np.testing.assert_allclose(levels, (-8, 1), rtol=1e-5)
    assert logs[0, 2] == levels[0] and np.isnan(logs[0, 3])
    assert level_index(levels[0], levels, 256) == 0 and level_index(levels[1], levels, 256) == 255
    assert log_image(np.full((2, 2), np.nan, np.float32))[1] == (0.0, 1.0)


def test_row_labels_never_overlap():
    assert row_label_stride(16, 600) == 1
    stride = row_label_stride(2000, 600)
    assert 2000 / stride * 14 <= 600


def test_histograms_over_time_keep_every_count_on_one_value_grid():
    torch.manual_seed(0)
    early, late = torch.randn(1000), torch.randn(1000) * 3 + 2
    records = []
    for step, values in ((1, early), (50, late)):
        low, high = float(values.min()), float(values.max())
        counts = torch.histc(values, 32, low, high).numpy().astype(np.uint32)
        records.append(HistogramRecord(step, step - 1, 32, [("grad", "w", low, high)],
                                       counts[None]))  # fmt: skip
    image = histogram_image(records, "grad", "w", grid_bins=64)
    assert list(image.steps) == [1, 50]
    np.testing.assert_allclose(image.fractions.sum(axis=1), 1, rtol=1e-5)
    assert image.low == pytest.approx(min(float(early.min()), float(late.min())))
    centres = np.linspace(image.low, image.high, 65)
    centres = (centres[:-1] + centres[1:]) / 2
    means = image.fractions @ centres
    assert means[0] == pytest.approx(float(early.mean()), abs=0.1)
    assert means[1] == pytest.approx(float(late.mean()), abs=0.2)
    assert histogram_image(records, "activation", "w") is None


def test_run_states():
    assert run_state(None, 0, 0, 100).kind == "waiting"
    assert run_state(None, 5, 99, 100).kind == "live"
    quiet = run_state(None, 5, 10, 100)
    assert quiet.kind == "quiet" and quiet.quiet_s == 90
    ended = {"status": "error", "step": 11, "error": "RuntimeError: boom"}
    assert run_state(ended, 11, 0, 0) == run_state(ended, 11, 5, 5)
    assert run_state(ended, 11, 0, 0).error == "RuntimeError: boom"
    assert run_state({"status": "finished", "step": 3}, 3, 0, 0).kind == "finished"


def test_the_followed_copy_holds_what_the_reader_read_against_torch(tmp_path):
    model = deep_sigmoid_mlp(depth=3, width=4)
    norms = record_training(tmp_path / "r", model, steps=25, ratio_every=5, histograms_every=10)
    reader = RunReader(tmp_path / "r")
    collector = UpdateCollector(reader)
    run = FollowedRun()
    run.apply(collector.collect())
    assert collector.collect() is None  # nothing new
    rank = run.ranks[0]
    assert rank.rows == 25 and list(rank.steps) == list(range(1, 26))
    np.testing.assert_allclose(rank.loss, reader.ranks[0].loss)
    for column, name in enumerate(rank.param_names):
        np.testing.assert_allclose(rank.grad_bins.values[:, column], norms[name], rtol=1e-6)
    x, ratios = rank.update_ratios()
    assert list(x) == [5, 10, 15, 20, 25] and ratios.shape == (5, len(rank.param_names))
    assert (ratios > 0).all()
    np.testing.assert_array_equal(rank.scalar("lr"), np.full(25, 0.1))
    assert [h.step for h in rank.histograms] == [1, 10, 20]
    assert rank.ended["status"] == "finished" and run.ended
    assert rank.param_modules["0.weight"] == "0" and rank.module_types["0"] == "Linear"


def test_updates_carry_only_the_new_rows(tmp_path):
    from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file

    (tmp_path / "r").mkdir()
    write_run_file(tmp_path / "r", name="r")
    writer = RankStreamWriter(tmp_path / "r")
    writer.write_schema({"schema": 0, "params": [{"name": "w"}], "modules": []})
    reader = RunReader(tmp_path / "r")
    collector = UpdateCollector(reader)
    run = FollowedRun()
    for step in range(1, 4):
        writer.write_step({"step": step, "schema": 0, "loss": step, "scalars": {"lr": step}},
                          {"grad_norm": np.array([step], np.float32)})  # fmt: skip
        reader.refresh()
        update = collector.collect()
        assert [len(u.steps) for u in update.ranks] == [1] and update.ranks[0].first_row == step - 1
        run.apply(update)
    writer.write_schema({"schema": 1, "params": [{"name": "w"}, {"name": "v"}], "modules": []})
    writer.write_step({"step": 4, "schema": 1, "scalars": {"beta": 0.5}},
                      {"grad_norm": np.array([4, 40], np.float32)})  # fmt: skip
    reader.refresh()
    run.apply(collector.collect())
    rank = run.ranks[0]
    assert rank.param_names == ["w", "v"]
    np.testing.assert_array_equal(rank.grad_bins.values[:, 0], [1, 2, 3, 4])
    assert np.isnan(rank.grad_bins.values[:3, 1]).all() and rank.grad_bins.values[3, 1] == 40
    np.testing.assert_array_equal(rank.scalar("lr")[:3], [1, 2, 3])
    assert np.isnan(rank.scalar("lr")[3]) and rank.scalar("beta")[3] == 0.5
    writer.close()
