"""What the learner's Script area adds to a run, against plain `exec` of the same code, in one
run (interleaved, medians):

1. script_loop_backward_recorded — the reference training loop (500 epochs) written as the
   tutorials end it, a `train_step()` function called in a loop, through ScriptRun as the
   Script area runs it: the locals of the script's functions kept (function_locals.py) and every
   `loss.backward()` recorded with hooks on its graph (script_backward.py; the first 3 passes
   and the last are kept). Goal: ratio <= 1.5.
2. script_function_calls — 200,000 calls of a one-line Python function: the cost of the
   try/finally hook that keeps a function's locals, with nothing else to do. Goal: ratio <= 2.
   Both figures fail if the runner records nothing (checked: passes and captured locals).
"""

from __future__ import annotations

import contextlib
import io
import statistics
import time

import numpy as np
import torch
from startup import bench_line

from tensorviz.core.autograd.script_backward import ScriptBackwardRecorder
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.script.source import SCRIPT_FILENAME

RUNS = 7

TRAINING = """\
np.random.seed(42)
x = torch.tensor(np.random.rand(100, 1) * 10, dtype=torch.float32)
y = 2.5 * x + 1.8 + 2 * torch.tensor(np.random.randn(100, 1), dtype=torch.float32)
torch.manual_seed(42)
w = torch.randn(1, requires_grad=True)
b = torch.randn(1, requires_grad=True)

def train_step(lr=0.01):
    prediction = w * x + b
    loss = ((prediction - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w.sub_(lr * w.grad)
        b.sub_(lr * b.grad)
    w.grad.zero_()
    b.grad.zero_()
    return loss.item()

for epoch in range(500):
    last = train_step()
print(last)
"""

CALLS = """\
def add(a, b):
    return a + b

total = 0
for i in range(200_000):
    total = add(total, i)
"""


def plain_exec(source: str) -> float:
    namespace = {"__name__": "__main__", "torch": torch, "nn": torch.nn, "np": np}
    namespace["F"] = torch.nn.functional
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, SCRIPT_FILENAME, "exec"), namespace)  # noqa: S102
    return time.perf_counter() - started


def ours(source: str, expect_passes: int) -> float:
    recorder = ScriptBackwardRecorder(SCRIPT_FILENAME)
    started = time.perf_counter()
    result = ScriptRun(source, {}, around_user_code=[recorder.installed]).run()
    elapsed = time.perf_counter() - started
    assert result.status == "finished", result.failure
    assert len(recorder.passes) == expect_passes, "the backward passes were not recorded"
    assert result.capture.functions_called, "no function's locals were kept"
    return elapsed


def figure(name: str, source: str, passes: int, goal: float) -> str:
    anchors, mine = [], []
    for _ in range(RUNS):
        anchors.append(plain_exec(source))
        mine.append(ours(source, passes))
    return bench_line(name, statistics.median(mine), statistics.median(anchors), goal)


def main() -> int:
    print(figure("script_loop_backward_recorded", TRAINING, 4, 1.5))
    print(figure("script_function_calls", CALLS, 0, 2.0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
