"""Whole-process time of two headless commands against what the user's own Python would spend.

1. `tensorviz inspect small.pt` (a small state dict) against `python -c "import torch"`: the
   inspection must cost little more than the torch import it cannot avoid. Goal <= 1.15.
2. `tensorviz graph gpt.py --tensor loss -o x.svg` (a two-block GPT, its loss's autograd graph
   laid out and painted as SVG) against `python gpt.py`, the same script run plainly. Goal <= 1.10.
   A floor line: the same script after importing networkx, QtWidgets and QtSvg, which the
   graph and its painting by the app's own scene cannot do without.

Each command runs as its own process, started from the console script the way a user types it;
ours and the anchors are interleaved (inspect, import torch, graph, script, ...), medians of
RUNS. Every run of ours is checked: exit 0, the tensor names listed, an SVG written.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from startup import bench_line

RUNS = 9
INSPECT_GOAL = 1.15
GRAPH_GOAL = 1.10

GPT_SCRIPT = textwrap.dedent(
    """
    import torch
    from torch import nn
    from torch.nn import functional as F

    torch.manual_seed(0)


    class Block(nn.Module):
        def __init__(self, width, heads):
            super().__init__()
            self.ln_1 = nn.LayerNorm(width)
            self.attn = nn.MultiheadAttention(width, heads, batch_first=True)
            self.ln_2 = nn.LayerNorm(width)
            self.mlp = nn.Sequential(
                nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width)
            )

        def forward(self, x):
            n = x.shape[1]
            mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
            h = self.ln_1(x)
            x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
            return x + self.mlp(self.ln_2(x))


    class GPT(nn.Module):
        def __init__(self, vocab=100, width=64, heads=4, blocks=2, context=16):
            super().__init__()
            self.wte = nn.Embedding(vocab, width)
            self.wpe = nn.Embedding(context, width)
            self.blocks = nn.ModuleList(Block(width, heads) for _ in range(blocks))
            self.ln_f = nn.LayerNorm(width)
            self.head = nn.Linear(width, vocab, bias=False)

        def forward(self, idx):
            x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln_f(x))


    model = GPT()
    tokens = torch.randint(0, 100, (2, 16))
    logits = model(tokens)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, 100), tokens[:, 1:].reshape(-1))
    print(f"loss {loss.item():.4f}")
    """
)


FLOOR = (
    "import runpy, sys, torch, networkx, PySide6.QtWidgets, PySide6.QtSvg; "
    "runpy.run_path(sys.argv[1], run_name='__main__')"
)


def tensorviz_command() -> list[str]:
    script = Path(sys.executable).with_name("tensorviz")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "tensorviz"]


def timed(command: list[str], env: dict, cwd: str) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    return time.perf_counter() - start, done


def make_files(folder: Path) -> tuple[Path, Path]:
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    small = folder / "small.pt"
    torch.save(model.state_dict(), small)
    script = folder / "gpt.py"
    script.write_text(GPT_SCRIPT, encoding="utf-8")
    return small, script


def check(name: str, done: subprocess.CompletedProcess, svg: Path) -> None:
    """A run of ours that did not do its work is no figure."""
    if done.returncode != 0:
        raise SystemExit(f"{name} failed ({done.returncode}): {done.stderr[-2000:]}")
    if name == "inspect" and not ("[32, 16] f32" in done.stdout and "[4] f32" in done.stdout):
        raise SystemExit(f"inspect did not list the tensors:\n{done.stdout}")
    if name == "graph" and "<svg" not in svg.read_text(encoding="utf-8")[:2000]:
        raise SystemExit("graph wrote no SVG")


def main() -> int:
    with tempfile.TemporaryDirectory() as home:
        folder = Path(home)
        small, script = make_files(folder)
        svg = folder / "x.svg"
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home)
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        env.setdefault("QT_QPA_PLATFORM", "offscreen")  # (the floor's Qt; ours sets it itself)
        ours = tensorviz_command()
        cases = {
            "inspect": ours + ["inspect", str(small)],
            "import_torch": [sys.executable, "-c", "import torch"],
            "graph": ours + ["graph", str(script), "--tensor", "loss", "-o", str(svg)],
            "script": [sys.executable, str(script)],
            "floor": [sys.executable, "-c", FLOOR, str(script)],
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for run in range(RUNS + 1):  # the first round warms the file cache for every side
            for name, command in cases.items():
                svg.unlink(missing_ok=True)
                elapsed, done = timed(command, env, home)
                check(name, done, svg)
                if run:
                    times[name].append(elapsed)
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"# load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    inspect, torch_only = median["inspect"], median["import_torch"]
    print(bench_line("startup_cli_inspect", inspect, torch_only, INSPECT_GOAL))
    print(bench_line("startup_cli_graph_svg", median["graph"], median["script"], GRAPH_GOAL))
    print("# the floor: the script run after importing what a Qt-painted SVG of a networkx graph")
    print("# needs (torch, networkx, QtWidgets, QtSvg), nothing extracted, laid out or painted")
    floor = median["floor"]
    print(bench_line("startup_cli_graph_svg_imports_floor", floor, median["script"], GRAPH_GOAL))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
