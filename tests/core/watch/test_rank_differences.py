"""Ranks whose weights differ after the same step: a real two-process DDP job (gloo, CPU) stays
equal, and a weight edited on one rank alone is found at that step, by name."""

import numpy as np
import pytest
import torch.distributed as dist
from recorded_loops import record_ddp

from tensorviz.core.watch.rank_differences import RELATIVE_TOLERANCE, rank_differences
from tensorviz.core.watch.run_reader import RunReader
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file

PARAMS = [{"name": "a", "shape": [4]}, {"name": "b", "shape": [4]}]


def _two_ranks(folder, weights_of_rank):
    write_run_file(folder, name="ddp", world_size=2)
    for rank in (0, 1):
        writer = RankStreamWriter(folder, rank)
        writer.write_schema({"schema": 0, "params": PARAMS, "modules": []})
        for step in range(1, 6):
            weights = np.asarray(weights_of_rank(rank, step), np.float32)
            writer.write_step(
                {"step": step, "schema": 0, "loss": 1.0},
                {"grad_norm": np.ones(2, np.float32), "weight_norm": weights},
            )
        writer.close()
    return RunReader(folder)


def test_equal_ranks_and_rounding_are_no_difference(tmp_path):
    reader = _two_ranks(tmp_path, lambda rank, step: [step, 2.0 * (1 + rank * 1e-7)])
    assert rank_differences(reader) == []


def test_a_difference_beyond_rounding_names_the_step_and_parameter(tmp_path):
    def weights(rank, step):
        return [1.0, 2.0 + (0.01 if rank == 1 and step >= 3 else 0.0)]

    (difference,) = rank_differences(_two_ranks(tmp_path, weights))
    assert (difference.rank, difference.reference_rank) == (1, 0)
    assert difference.step == 3 and difference.row == 2 and difference.names == ("b",)
    assert difference.largest == pytest.approx(0.01 / 2.01, rel=1e-3)
    assert difference.largest > RELATIVE_TOLERANCE
    assert "step 3" in difference.title and "b" in difference.title


def test_one_rank_alone_is_no_comparison(tmp_path):
    write_run_file(tmp_path, name="solo", world_size=1)
    RankStreamWriter(tmp_path, 0).close()
    assert rank_differences(RunReader(tmp_path)) == []


@pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(), reason="no gloo")
def test_real_ddp_ranks_stay_equal_until_one_rank_edits_a_weight(tmp_path):
    record_ddp([(tmp_path / "synced", None), (tmp_path / "desync", 4)], steps=6)
    synced = RunReader(tmp_path / "synced")
    assert sorted(synced.ranks) == [0, 1] and synced.ranks[1].steps == list(range(1, 7))
    assert rank_differences(synced) == []
    # the ranks saw different batches, so their losses differ, yet DDP kept the weights equal
    assert synced.ranks[0].loss != synced.ranks[1].loss

    (difference,) = rank_differences(RunReader(tmp_path / "desync"))
    assert difference.rank == 1 and difference.step == 4
    assert difference.names == ("module.2.weight",)
    assert difference.largest == pytest.approx(0.01, rel=0.05)
