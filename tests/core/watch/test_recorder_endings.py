"""How a watched run ends when nobody calls close(): at exit "finished", through sys.excepthook
"error" (the exception's line and traceback, every step before it kept) or "interrupted"
(Ctrl+C); and the ranks of a distributed job write into one folder."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tensorviz.core.watch.run_reader import RunReader

ROOT = Path(__file__).resolve().parents[3]

LOOP = """
import sys, torch, tensorviz
from torch import nn
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
run = tensorviz.watch(model, optimizer, log_dir=sys.argv[1])
for step in range(5):
    if step == 3:
        {ending}
    optimizer.zero_grad()
    model(torch.randn(2, 3)).sum().backward()
    optimizer.step()
"""


def _script_run(tmp_path, ending: str, env=None):
    source = LOOP.replace("{ending}", ending)
    result = subprocess.run([sys.executable, "-c", source, str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    folders = [f for f in tmp_path.iterdir() if f.is_dir()]
    return result, folders


@pytest.mark.parametrize(
    ("ending", "status", "code"),
    [("pass", "finished", 0), ("raise ValueError('bad batch')", "error", 1),
     ("raise KeyboardInterrupt", "interrupted", -2)],  # python dies of SIGINT
)  # fmt: skip
def test_the_run_ends_by_itself(tmp_path, ending, status, code):
    result, (folder,) = _script_run(tmp_path, ending)
    assert result.returncode == code
    series = RunReader(folder).ranks[0]
    ended = series.ended
    assert ended["status"] == status
    assert series.steps == ([1, 2, 3, 4, 5] if status == "finished" else [1, 2, 3])
    if status == "error":
        assert ended["error"] == "ValueError: bad batch"
        assert "ValueError: bad batch" in ended["traceback"]
        assert "Traceback (most recent call last)" in result.stderr  # python's own, still


def test_ranks_without_a_process_group_agree_on_one_folder(tmp_path):
    processes = []
    for rank in range(2):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", TORCHELASTIC_RUN_ID="abc123")
        source = LOOP.replace("{ending}", "pass")
        processes.append(subprocess.Popen([sys.executable, "-c", source, str(tmp_path)],
                                          cwd=ROOT, env=env, stderr=subprocess.PIPE))  # fmt: skip
    for process in processes:
        assert process.wait(timeout=120) == 0
    (folder,) = tmp_path.iterdir()
    run = RunReader(folder)
    assert sorted(run.ranks) == [0, 1]
    assert json.loads((folder / "run.json").read_text())["world_size"] == 2
    assert all(series.steps == [1, 2, 3, 4, 5] for series in run.ranks.values())


DDP = """
import os, sys, torch, torch.distributed as dist, tensorviz
from torch import nn
rank = int(sys.argv[2])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:" + sys.argv[3], rank=rank,
                        world_size=2)
torch.manual_seed(0)
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
run = tensorviz.watch(model, optimizer, log_dir=sys.argv[1])
for step in range(3):
    optimizer.zero_grad()
    model(torch.randn(2, 3) + rank).sum().backward()
    optimizer.step()
run.close()
dist.destroy_process_group()
"""


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.skipif(not torch.distributed.is_available(), reason="torch without distributed")
def test_ddp_ranks_write_one_folder_with_the_model_s_own_names(tmp_path):
    port = str(_free_port())
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE")}
    processes = [
        subprocess.Popen([sys.executable, "-c", DDP, str(tmp_path), str(rank), port], cwd=ROOT,
                         env=env, stderr=subprocess.PIPE, text=True)
        for rank in range(2)
    ]  # fmt: skip
    for process in processes:
        assert process.wait(timeout=180) == 0, process.stderr.read()
    (folder,) = tmp_path.iterdir()
    run = RunReader(folder)
    assert sorted(run.ranks) == [0, 1]
    assert run.ranks[1].param_names == ["0.weight", "0.bias", "1.weight", "1.bias"]
    grads = [run.ranks[r].tables["grad_norm"].values for r in (0, 1)]
    torch.testing.assert_close(torch.tensor(grads[0]), torch.tensor(grads[1]))  # all-reduced
