"""`tensorviz watch SCRIPT.py -- ARGS`: an unchanged nanoGPT-shaped train.py, set up as
`python train.py ARGS` sets it up, watched into a run folder that keeps every step when the
script raises or is killed; the exit status is the script's."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tensorviz.core.watch.run_reader import RunReader

ROOT = Path(__file__).resolve().parents[2]
TRAIN = "tests/nanogpt/train.py"


def _tensorviz(*words, **options):
    command = [sys.executable, "-m", "tensorviz", *words]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          **options)  # fmt: skip


def _the_run(log_dir: Path) -> RunReader:
    (folder,) = log_dir.iterdir()
    return RunReader(folder)


def test_the_script_is_set_up_as_python_sets_it_up(tmp_path):
    ours, plain = tmp_path / "ours.json", tmp_path / "plain.json"
    result = _tensorviz("watch", TRAIN, "--log-dir", str(tmp_path / "runs"), "--",
                        "--max_iters=3", f"--report={ours}")  # fmt: skip
    assert result.returncode == 0, result.stderr
    subprocess.run([sys.executable, TRAIN, "--max_iters=3", f"--report={plain}"], cwd=ROOT,
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    seen, expected = json.loads(ours.read_text()), json.loads(plain.read_text())
    assert seen["argv"] == [TRAIN, "--max_iters=3", f"--report={ours}"]
    assert expected["argv"] == [TRAIN, "--max_iters=3", f"--report={plain}"]
    assert seen["file"] == expected["file"] and seen["path0"] == expected["path0"]
    assert seen["name"] == "__main__"
    assert "recording this run into" in result.stderr
    run = _the_run(tmp_path / "runs")
    series = run.ranks[0]
    assert series.steps == [1, 2, 3] and series.ended["status"] == "finished"
    assert "transformer.h.1.mlp.c_fc.weight" in series.param_names
    assert "lm_head.weight" not in series.param_names  # tied to transformer.wte.weight
    assert "transformer.h.0.mlp.gelu" in series.module_names
    assert np.isfinite(series.tables["grad_norm"].values).all()
    assert np.isfinite(series.tables["act_mean"].column("transformer.h.0.mlp.gelu")).all()
    losses = [float(line.split()[-1]) for line in result.stdout.splitlines() if "loss" in line]
    np.testing.assert_allclose(series.loss, losses, atol=1e-4)


def test_a_script_that_raises_keeps_its_steps(tmp_path):
    result = _tensorviz("watch", TRAIN, "--log-dir", str(tmp_path), "--", "--max_iters=9",
                        "--fail_at=3")  # fmt: skip
    assert result.returncode == 1
    assert "RuntimeError: failing on purpose at iteration 3" in result.stderr
    assert f'{ROOT / TRAIN}", line' in result.stderr
    assert "tensorviz/cli" not in result.stderr  # the traceback starts in the script
    series = _the_run(tmp_path).ranks[0]
    assert series.steps == [1, 2, 3]
    ended = series.ended
    assert ended["status"] == "error" and ended["step"] == 3
    assert ended["error"] == "RuntimeError: failing on purpose at iteration 3"
    assert "train.py" in ended["traceback"]


def test_exit_status_is_the_scripts(tmp_path):
    script = tmp_path / "leave.py"
    script.write_text("import sys\nsys.exit(3)\n")
    result = _tensorviz("watch", "--json", str(script), "--log-dir", str(tmp_path / "r"))
    assert result.returncode == 3
    (folder,) = (tmp_path / "r").iterdir()
    assert json.loads(result.stdout) == {"run_folder": str(folder), "exit_status": 3, "steps": []}
    broken = tmp_path / "broken.py"
    broken.write_text("def (:\n")
    result = _tensorviz("watch", str(broken), "--log-dir", str(tmp_path / "r2"))
    assert result.returncode == 2 and "line 1" in result.stderr
    assert result.stderr.count("\n") == 1


def test_sigkill_mid_run_leaves_a_readable_folder(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "tensorviz", "watch", TRAIN, "--log-dir", str(tmp_path), "--",
         "--max_iters=100000", "--sleep=0.005"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        steps = 0
        while steps < 5 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            folders = list(tmp_path.iterdir())
            if folders and (folders[0] / "rank0" / "steps.tv").exists():
                steps = len(RunReader(folders[0]).ranks.get(0).steps)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    assert steps >= 5
    run = _the_run(tmp_path)
    run.refresh(final=True)
    series = run.ranks[0]
    assert series.ended is None
    assert series.steps[:5] == [1, 2, 3, 4, 5]
    assert series.steps == list(range(1, len(series.steps) + 1))
    assert len(run.problems) <= 1  # at most the frame cut by the kill


def test_view_without_a_display_says_where_the_run_is(tmp_path):
    script = tmp_path / "nothing.py"
    script.write_text("print('ran')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = _tensorviz("watch", "--view", str(script), "--log-dir", str(tmp_path / "r"), env=env)
    assert result.returncode == 0 and result.stdout == "ran\n"
    (folder,) = (tmp_path / "r").iterdir()
    line = next(line for line in result.stderr.splitlines() if "no display" in line)
    assert str(folder) in line


@pytest.mark.parametrize("words", [["--every", "0"], ["--histograms-every", "x"]])
def test_bad_options_are_one_line(tmp_path, words):
    result = _tensorviz("watch", TRAIN, *words)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
