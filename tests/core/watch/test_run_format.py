"""The run folder's frames and the incremental reader: whole frames only, damage costs only the
frames it hits, a live tail waits, a folder that is no run is one sentence."""

import json

import numpy as np
import pytest

from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.activation_job import half_if_exact_enough
from tensorviz.core.watch.run_reader import NotARunFolderError, RunReader
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file

PARAMS = [{"name": "0.weight", "shape": [3, 2]}, {"name": "0.bias", "shape": [3]}]


def _run(tmp_path, steps=3, rank=0):
    write_run_file(tmp_path, name="t", world_size=1)
    writer = RankStreamWriter(tmp_path, rank)
    writer.write_schema({"schema": 0, "params": PARAMS, "modules": [{"name": "0", "kind": "relu"}]})
    for step in range(1, steps + 1):
        writer.write_step(
            {"step": step, "schema": 0, "loss": 1.0 / step, "scalars": {"lr": 0.1 * step}},
            {"grad_norm": np.array([step, 2 * step], np.float32),
             "weight_norm": np.array([1, 1], np.float32),
             "act_mean": np.array([0.5], np.float32)},
        )  # fmt: skip
    return writer


def test_frames_round_trip_every_dtype():
    arrays = {"a": np.arange(5, dtype=np.float32), "b": np.array([1.5, np.nan]),
              "c": np.array([3, 4], np.int64), "d": np.array([7], np.uint32),
              "e": np.array([0.25, -3.5, np.nan], np.float16)}  # fmt: skip
    scanned = rf.scan_frames(rf.encode_frame(rf.Frame({"x": 1}, arrays)) * 2)
    assert len(scanned.frames) == 2 and not scanned.damaged_at
    for name, values in arrays.items():
        np.testing.assert_array_equal(scanned.frames[1].arrays[name], values)
    assert scanned.frames[0].header == {"x": 1}


def test_a_float16_column_is_read_like_a_float32_one(tmp_path):
    writer = _run(tmp_path, steps=1)
    writer.write_step({"step": 2, "schema": 0},
                      {"act_mean": np.array([0.125], np.float16)})  # fmt: skip
    series = RunReader(tmp_path).ranks[0]
    assert series.tables["act_mean"].column("0").tolist() == [0.5, 0.125]
    assert series.optimizers == [0, 0]  # no "optimizer" in the header: the first one


def test_module_columns_are_half_width_only_when_float16_keeps_their_digits():
    assert half_if_exact_enough(np.array([0.5, 0, np.nan], np.float32)).dtype == np.float16
    for kept in ([1e-6, 0.5], [7e4, 1.0]):
        column = np.array(kept, np.float32)
        assert half_if_exact_enough(column) is column


def test_reader_reads_steps_and_follows_appends(tmp_path):
    writer = _run(tmp_path, steps=2)
    reader = RunReader(tmp_path)
    series = reader.ranks[0]
    assert series.steps == [1, 2] and series.loss == [1.0, 0.5]
    np.testing.assert_array_equal(series.tables["grad_norm"].column("0.bias"), [2, 4])
    assert np.isnan(series.tables["update_ratio"].values).all()
    writer.write_step({"step": 3, "schema": 0}, {"grad_norm": np.array([9, 9], np.float32)})
    assert reader.refresh() and series.steps == [1, 2, 3]
    assert not reader.refresh()
    assert series.scalars.column("lr")[1] == pytest.approx(0.2)


def test_unfinished_tail_waits_and_a_cut_tail_is_one_sentence(tmp_path):
    writer = _run(tmp_path, steps=3)
    writer.close()
    steps = tmp_path / "rank0" / rf.STEPS_FILE
    data = steps.read_bytes()
    steps.write_bytes(data[:-5])  # SIGKILL mid-write
    reader = RunReader(tmp_path)
    assert reader.ranks[0].steps == [1, 2] and not reader.problems
    reader.refresh(final=True)
    assert reader.ranks[0].steps == [1, 2] and len(reader.problems) == 1


def test_an_edited_byte_loses_one_frame_only(tmp_path):
    _run(tmp_path, steps=5).close()
    steps = tmp_path / "rank0" / rf.STEPS_FILE
    data = bytearray(steps.read_bytes())
    frame_size = len(data) // 5
    data[frame_size + 20] ^= 0xFF  # inside the second frame
    steps.write_bytes(bytes(data))
    reader = RunReader(tmp_path)
    assert reader.ranks[0].steps == [1, 3, 4, 5]
    assert len(reader.problems) == 1 and "damaged" in reader.problems[0]


def test_later_schema_adds_columns(tmp_path):
    writer = _run(tmp_path, steps=1)
    more = PARAMS + [{"name": "1.weight", "shape": [1, 3]}]
    writer.write_schema({"schema": 1, "params": more, "modules": []})
    writer.write_step({"step": 2, "schema": 1}, {"grad_norm": np.array([1, 2, 3], np.float32)})
    series = RunReader(tmp_path).ranks[0]
    table = series.tables["grad_norm"]
    assert table.names == ["0.weight", "0.bias", "1.weight"]
    assert np.isnan(table.values[0, 2]) and table.values[1, 2] == 3


@pytest.mark.parametrize("content", [None, "not json", json.dumps({"format": "other"})])
def test_not_a_run_folder_is_one_sentence(tmp_path, content):
    if content is not None:
        (tmp_path / rf.RUN_FILE).write_text(content)
    with pytest.raises(NotARunFolderError) as raised:
        RunReader(tmp_path)
    assert "\n" not in str(raised.value) and str(tmp_path) in str(raised.value)


def test_histograms_read_after_their_steps_find_their_rows(tmp_path):
    writer = _run(tmp_path, steps=3)
    tensors = [["weight", "0.weight", -1.0, 1.0]]
    for step in (1, 3):
        writer.write_histograms({"step": step, "optimizer": 0, "bins": 2, "tensors": tensors},
                                np.array([step, 1]))  # fmt: skip
    reader = RunReader(tmp_path)  # steps.tv is read whole before histograms.tv
    assert [(h.step, h.row) for h in reader.ranks[0].histograms] == [(1, 0), (3, 2)]
