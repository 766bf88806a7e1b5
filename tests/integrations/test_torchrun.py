"""Real `torchrun --nproc_per_node 2 --standalone` jobs (gloo, CPU) with a
DistributedDataParallel model: watched by `tensorviz.watch(ddp_model, optimizer)` in the script,
or from outside by `torchrun -m tensorviz watch` on a script that never imports tensorviz. One
stream per rank in one run folder, the names without DDP's `module.` prefix, every rank's
numbers equal to what torch said on that rank, and a parameter that one rank changed by itself
is the one that stands out."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tensorviz.core.watch.rank_differences import rank_differences
from tensorviz.core.watch.run_reader import RunReader

SCRIPT = Path(__file__).with_name("ddp_training.py")
NAMES = ["0.weight", "0.bias", "2.weight", "2.bias"]


def _torchrun(log_dir: Path, *command: str) -> RunReader:
    environment = dict(os.environ, OMP_NUM_THREADS="1")
    completed = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
         *command],
        capture_output=True, text=True, timeout=180, env=environment,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    (folder,) = [entry for entry in log_dir.iterdir() if entry.is_dir()]  # one for both ranks
    return RunReader(folder)


def _torch_said(log_dir: Path, rank: int) -> np.ndarray:
    """steps × parameters × (grad norm, weight norm), from the script's own pre-hook."""
    records = json.loads((log_dir / f"torch_rank{rank}.json").read_text())
    return np.array([[record[name] for name in NAMES] for record in records])


def _columns(series, table: str) -> np.ndarray:
    values = series.tables[table]
    return np.stack([values.column(name) for name in NAMES], axis=1)


def _check_streams_against_torch(run: RunReader, log_dir: Path) -> None:
    assert sorted(run.ranks) == [0, 1]
    assert run.info.get("world_size") == 2
    for rank, series in run.ranks.items():
        assert series.steps == [1, 2, 3, 4]
        assert sorted(series.param_names) == sorted(NAMES)  # no "module." prefix
        assert series.ended is not None and series.ended["status"] == "finished"
        said = _torch_said(log_dir, rank)
        np.testing.assert_allclose(_columns(series, "grad_norm"), said[:, :, 0], rtol=1e-5)
        np.testing.assert_allclose(_columns(series, "weight_norm"), said[:, :, 1], rtol=1e-5)
        assert not np.isnan(series.loss).any()


def test_each_rank_writes_its_own_stream_with_torchs_numbers(tmp_path):
    run = _torchrun(tmp_path, str(SCRIPT), str(tmp_path))
    _check_streams_against_torch(run, tmp_path)
    # DDP averaged the gradients: both ranks stepped with the same ones, on different batches
    np.testing.assert_allclose(
        _columns(run.ranks[0], "grad_norm"), _columns(run.ranks[1], "grad_norm"), rtol=1e-6
    )
    assert run.ranks[0].loss != pytest.approx(run.ranks[1].loss)
    assert rank_differences(run) == []


def test_a_parameter_one_rank_changed_by_itself_is_the_one_that_differs(tmp_path):
    run = _torchrun(
        tmp_path, "-m", "tensorviz", "watch", "--log-dir", str(tmp_path), str(SCRIPT), "--",
        str(tmp_path), "--unchanged", "--desync-after", "2",
    )  # fmt: skip
    _check_streams_against_torch(run, tmp_path)  # tensorviz watch found the DDP model itself
    weights = {rank: _columns(series, "weight_norm") for rank, series in run.ranks.items()}
    differs = ~np.isclose(weights[0], weights[1], rtol=1e-6, atol=0.0)
    # rows: steps 1..4 as their pre-hooks saw the weights; rank 1 edited 2.weight after step 2
    expected = np.zeros_like(differs)
    expected[2:, NAMES.index("2.weight")] = True
    assert (differs == expected).all(), differs
    (difference,) = rank_differences(run)  # what the report and the viewer say
    assert (difference.rank, difference.reference_rank) == (1, 0)
    assert difference.step == 3 and difference.names == ("2.weight",)
