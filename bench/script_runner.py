"""The Script area's runner against plain `exec`, in one run.

1. The training-loop example (500 epochs of the reference linear regression) through ScriptRun —
   compile, workspace snapshot, output capture, capture of the namespace — against `exec` of the
   same code in a bare namespace (its prints into a StringIO). Interleaved runs, medians.
   Goal: ratio <= 1.3. Also printed: the same run with the optional TorchFunctionMode stop check
   (the reason it is off by default).
2. How long Stop takes to end the thread, from the request to the join, on `while True: pass` and
   on a loop of 64×64 matrix products (printed, not a figure with an anchor).
"""

from __future__ import annotations

import contextlib
import io
import statistics
import threading
import time

import numpy as np
import torch
from startup import bench_line

from tensorviz.core.script.examples import example_by_key
from tensorviz.core.script.run import ScriptRun

RUNS = 7
GOAL_RATIO = 1.3


def plain_exec(source: str) -> float:
    namespace = {"__name__": "__main__", "torch": torch, "nn": torch.nn, "np": np}
    namespace["F"] = torch.nn.functional
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<script>", "exec"), namespace)  # noqa: S102
    return time.perf_counter() - started


def ours(source: str, torch_mode: bool = False) -> float:
    started = time.perf_counter()
    result = ScriptRun(source, {}, stop_between_torch_calls=torch_mode).run()
    assert result.status == "finished", result.failure
    return time.perf_counter() - started


def stop_latency(source: str) -> float:
    run = ScriptRun(source, {})
    thread = threading.Thread(target=run.run)
    thread.start()
    while run.progress()[0] == 0:
        time.sleep(0.001)
    time.sleep(0.2)
    requested = time.perf_counter()
    while thread.is_alive():
        run.request_stop()  # as the Script area does, every tick until the thread has ended
        thread.join(0.01)
    return time.perf_counter() - requested


def main() -> int:
    source = example_by_key("07_training_loop").source
    anchors, mine, with_mode = [], [], []
    for _ in range(RUNS):
        anchors.append(plain_exec(source))
        mine.append(ours(source))
        with_mode.append(ours(source, torch_mode=True))
    print(
        bench_line(
            "script_training_loop", statistics.median(mine), statistics.median(anchors), GOAL_RATIO
        )
    )
    extra = statistics.median(with_mode) / statistics.median(mine) - 1
    print(
        f"with the TorchFunctionMode stop check: {statistics.median(with_mode):.3f} s "
        f"({extra:+.0%} against the runner without it)"
    )
    loops = {
        "while True: pass": "while True:\n    pass\n",
        "torch loop": "a = torch.randn(64, 64)\nwhile True:\n    a = torch.tanh(a @ a)\n",
    }
    for name, loop in loops.items():
        latencies = [stop_latency(loop) for _ in range(5)]
        print(
            f"stop latency, {name}: median {statistics.median(latencies) * 1000:.1f} ms, "
            f"max {max(latencies) * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
