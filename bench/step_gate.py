"""What Pause / Step support costs a watched training loop that nobody pauses, in one run.

A watched loop (a 12-layer MLP, width 128, batch 64, SGD, CPU, one torch thread;
tensorviz.watch at its defaults) and the run's StepGate, whose two calls every step makes:
at_step (the step listener) and before_backward (the backward listener), timed alone over
200,000 calls with a control.json that does not change (one os.stat each, no parse). The BENCH
line adds them to the loop's own step time; the gated and ungated loops are also timed side by
side (the gate's listeners on, and off: then the recorder builds no StepMoment either) and the
median of their ratios printed, which on a shared machine is within its noise.

  watch_step_gate_overhead    (step + the gate's calls) / step    <= 1.01
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import torch
from startup import bench_line

import tensorviz
from tensorviz.core.watch.step_control import StepGate, send

RUNS = 21
STEPS = 50
CALLS = 200_000
GOAL = 1.01


def make_loop():
    torch.manual_seed(0)
    layers = []
    for _ in range(12):
        layers += [torch.nn.Linear(128, 128), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers, torch.nn.Linear(128, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    x, y = torch.randn(64, 128), torch.randn(64, 1)
    return model, optimizer, x, y


def step_time(run, model, optimizer, x, y, gated: bool) -> float:
    gate = run.step_gate
    if not gated:
        run.remove_step_listener(gate.at_step)
        run.remove_backward_listener(gate.before_backward)
    try:
        started = time.perf_counter()
        for _ in range(STEPS):
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        return (time.perf_counter() - started) / STEPS
    finally:
        if not gated:
            run.add_step_listener(gate.at_step)
            run.add_backward_listener(gate.before_backward)


def gate_calls(folder: Path) -> tuple[float, float]:
    gate = StepGate(folder, lambda *a, **k: None)
    moment = SimpleNamespace(step=1, models=None)
    started = time.perf_counter()
    for step in range(1, CALLS + 1):
        moment.step = step
        gate.at_step(moment)
    at_step = (time.perf_counter() - started) / CALLS
    started = time.perf_counter()
    for _ in range(CALLS):
        gate.before_backward(None)
    return at_step, (time.perf_counter() - started) / CALLS


def main() -> int:
    torch.set_num_threads(1)  # (a shared machine's other work moves multi-threaded timings most)
    with tempfile.TemporaryDirectory() as folder:
        model, optimizer, x, y = make_loop()
        run = tensorviz.watch(model, optimizer, log_dir=folder)
        step_time(run, model, optimizer, x, y, True)  # warm-up
        gated, ungated = [], []
        for _ in range(RUNS):
            ungated.append(step_time(run, model, optimizer, x, y, False))
            gated.append(step_time(run, model, optimizer, x, y, True))
        run.close()
        empty = Path(folder) / "empty"
        empty.mkdir()
        bare = gate_calls(empty)
        unchanged = Path(folder) / "unchanged"
        unchanged.mkdir()
        send(unchanged, "continue")
        kept = gate_calls(unchanged)
    ours, anchor = statistics.median(gated), statistics.median(ungated)
    paired = statistics.median(g / u for g, u in zip(gated, ungated, strict=True))
    print(f"step with the gate {ours * 1e3:.3f} ms, without {anchor * 1e3:.3f} ms; "
          f"median of the {RUNS} side-by-side ratios {paired:.3f}")  # fmt: skip
    print(f"gate alone, no control.json: at_step {bare[0] * 1e6:.2f} us, "
          f"before_backward {bare[1] * 1e6:.2f} us")  # fmt: skip
    print(f"gate alone, control.json unchanged: at_step {kept[0] * 1e6:.2f} us, "
          f"before_backward {kept[1] * 1e6:.2f} us")  # fmt: skip
    gate_cost = kept[0] + kept[1]
    print(bench_line("watch_step_gate_overhead", (anchor + gate_cost) * 1e3, anchor * 1e3, GOAL))
    return 0


if __name__ == "__main__":
    sys.exit(main())
