"""tensorviz.watch's cost on a training step, in one run (issue 25's Performance):

1. `watch_overhead_defaults`: a training step with `tensorviz.watch(model, optimizer)` at the
   defaults (statistics every step, histograms every 50) ÷ the same loop without watch; goal
   <= 1.03. `watch_overhead_everything`: every statistic and histogram every step; goal <= 1.15.
   Two models, both on the CPU: a nanoGPT-shaped GPT (4 layers, width 128) and a 12-layer MLP;
   the headline line is the worse of the two, each model has its own line too. Rounds are
   interleaved (plain, defaults, everything, anchor, plain, ...) and the median round counts:
   the machine is shared and noisy.
2. Beside it, the anchor's own cost on the same loop: `wandb.watch(model, log="all",
   log_freq=1)` in offline mode when wandb is importable (requirements-bench.lock), else a plain
   loop of one hook per parameter that takes each gradient's norm and histogram with .item()
   (what such a hook costs); `watch_everything_vs_anchor`: ours (everything) ÷ that.
3. `watch_bytes_per_param_step`: bytes of steps.tv at the defaults per parameter tensor per step
   (goal <= 16), the module columns and the frame header included.
4. `watch_norms_floor_<model>`: the plain loop plus only what any exact per-parameter norm
   costs (one torch._foreach_norm over the gradients, one over the weights, one torch.stack,
   one .cpu() per step) ÷ plain, in the same rounds: the floor under the 1.03 goal.

torch runs on one thread: on a small shared machine more threads measure the neighbours. The
GPT: 4 layers, width 128, batch 8 × 64 tokens, AdamW groups, clipping; the MLP: 12 Linear
(width 256) + ReLU, batch 128, Adam, clipping. `WATCH_BENCH_ROUNDS` / `WATCH_BENCH_STEPS` set
the rounds (7) and steps per round (30).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch
from startup import bench_line
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "nanogpt"))
if (ROOT / ".venv" / "bench-packages").is_dir():  # make bench installs the anchors there
    sys.path.append(str(ROOT / ".venv" / "bench-packages"))
os.environ.setdefault("WANDB_SILENT", "true")

from model import GPT, GPTConfig  # noqa: E402

import tensorviz  # noqa: E402

ROUNDS = int(os.environ.get("WATCH_BENCH_ROUNDS", "7"))
STEPS = int(os.environ.get("WATCH_BENCH_STEPS", "30"))
WARMUP = 5
THREADS = 1  # a shared 2-core machine: more threads measure the neighbours


def gpt_setup():
    torch.manual_seed(0)
    config = GPTConfig(block_size=64, vocab_size=256, n_layer=4, n_head=4, n_embd=128)
    model = GPT(config)
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    data = torch.randint(256, (8, 65))
    x, y = data[:, :-1].contiguous(), data[:, 1:].contiguous()

    def loss_of():
        return model(x, y)[1]

    return model, optimizer, loss_of


def mlp_setup():
    torch.manual_seed(0)
    layers = [nn.Linear(64, 256), nn.ReLU()]
    for _ in range(10):
        layers += [nn.Linear(256, 256), nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(256, 10))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(128, 64), torch.randint(10, (128,))

    def loss_of():
        return nn.functional.cross_entropy(model(x), y)

    return model, optimizer, loss_of


def train(optimizer, loss_of, steps: int, *, norms: bool = False) -> float:
    """Seconds per step of forward, backward, clipping and the update; `norms`: plus what any
    exact per-parameter norm costs (the floor under watch's defaults): one torch._foreach_norm
    over the gradients, one over the weights, one stack and one .cpu() per step."""
    params = [p for group in optimizer.param_groups for p in group["params"]]
    start = time.perf_counter()
    for _ in range(steps):
        loss = loss_of()
        loss.backward()
        if norms:
            with torch.no_grad():
                grads = [p.grad for p in params]
                both = torch._foreach_norm(grads, 2) + torch._foreach_norm(params, 2)
                torch.stack(both).cpu()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    return (time.perf_counter() - start) / steps


def with_watch(setup, folder, **options):
    model, optimizer, loss_of = setup
    run = tensorviz.watch(model, optimizer, log_dir=folder, **options)
    train(optimizer, loss_of, WARMUP)
    seconds = train(optimizer, loss_of, STEPS)
    run.close()
    return seconds, run


def hook_per_parameter(setup):
    """The plain anchor: one tensor hook per parameter taking its gradient's norm and a
    histogram, each read with .item() / .tolist() (what a hand-written gradient logger does)."""
    model, optimizer, loss_of = setup
    kept = []
    handles = [
        p.register_hook(lambda g: kept.append((g.norm().item(), torch.histc(g, 32).tolist())))
        for p in model.parameters()
    ]
    train(optimizer, loss_of, WARMUP)
    seconds = train(optimizer, loss_of, STEPS)
    for handle in handles:
        handle.remove()
    return seconds


def wandb_watch(setup, folder):
    import wandb

    model, optimizer, loss_of = setup
    run = wandb.init(mode="offline", dir=str(folder), project="bench", reinit="finish_previous")
    wandb.watch(model, log="all", log_freq=1)
    original = loss_of

    def loss_and_log():
        loss = original()
        return loss

    def logged_train(steps):
        start = time.perf_counter()
        params = [p for group in optimizer.param_groups for p in group["params"]]
        for _ in range(steps):
            loss = loss_and_log()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            wandb.log({"loss": loss.item()})
        return (time.perf_counter() - start) / steps

    logged_train(WARMUP)
    seconds = logged_train(STEPS)
    wandb.unwatch(model)
    run.finish()
    return seconds


def wandb_available() -> bool:
    try:
        import wandb  # noqa: F401
    except ImportError:
        return False
    return True


def measure(name: str, make, folder: Path, anchor_kind: str) -> dict:
    setup = make()
    times: dict[str, list[float]] = {"plain": [], "floor": [], "defaults": [], "everything": [],
                                     "anchor": []}  # fmt: skip
    train(setup[1], setup[2], WARMUP)
    bytes_per = []
    for round_ in range(ROUNDS):
        times["plain"].append(train(setup[1], setup[2], STEPS))
        train(setup[1], setup[2], WARMUP, norms=True)
        times["floor"].append(train(setup[1], setup[2], STEPS, norms=True))
        seconds, run = with_watch(setup, folder / f"{name}-d{round_}")
        times["defaults"].append(seconds)
        steps_file = run.folder / "rank0" / "steps.tv"
        params = sum(1 for p in setup[0].parameters() if p.requires_grad)
        bytes_per.append(steps_file.stat().st_size / (params * (WARMUP + STEPS)))
        seconds, _run = with_watch(setup, folder / f"{name}-e{round_}", histograms_every=1,
                                   update_ratio_every=1)  # fmt: skip
        times["everything"].append(seconds)
        if anchor_kind == "wandb":
            times["anchor"].append(wandb_watch(setup, folder / f"{name}-w{round_}"))
        else:
            times["anchor"].append(hook_per_parameter(setup))
    medians = {kind: statistics.median(values) for kind, values in times.items()}
    medians["bytes"] = statistics.median(bytes_per)
    ratios = {
        kind: statistics.median([v / p for v, p in zip(times[kind], times["plain"], strict=True)])
        for kind in ("floor", "defaults", "everything", "anchor")
    }
    medians["ratios"] = ratios
    return medians


def main() -> int:
    torch.set_num_threads(THREADS)
    anchor_kind = "wandb" if wandb_available() else "hooks"
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, make in (("nanogpt", gpt_setup), ("mlp12", mlp_setup)):
            results[name] = measure(name, make, Path(folder), anchor_kind)
    lines = []
    for name, figures in results.items():  # the cost of exact norms alone, against that goal
        lines.append(bench_line(f"watch_norms_floor_{name}", figures["floor"], figures["plain"],
                                1.03))  # fmt: skip
    for kind, goal in (("defaults", 1.03), ("everything", 1.15)):
        for name, figures in results.items():
            lines.append(bench_line(f"watch_overhead_{kind}_{name}", figures[kind],
                                    figures["plain"], goal))  # fmt: skip
        worst = max(results.values(), key=lambda f: f[kind] / f["plain"])
        lines.append(bench_line(f"watch_overhead_{kind}", worst[kind], worst["plain"], goal))
    for name, figures in results.items():
        lines.append(
            bench_line(
                f"watch_everything_vs_{anchor_kind}_{name}",
                figures["everything"],
                figures["anchor"],
                1.0,
            )  # fmt: skip
        )
        print(f"# {name}: per-round ratio medians {figures['ratios']}", file=sys.stderr)
    gpt = results["nanogpt"]
    lines.append(bench_line("watch_bytes_per_param_step", gpt["bytes"], 16.0, 1.0))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
