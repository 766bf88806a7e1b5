"""Real torch training loops written to run folders exactly as docs/run_format.md says, so the
diagnoses and the report are tested against what torch really does (the recorder itself is
tested on its own; this helper only needs the format).

Per step, at the moment optimizer.step() is called: grad_norm = p.grad.norm() (NaN without a
grad), weight_norm = p.norm(); update_ratio = ‖p_after − p_before‖ / ‖p_before‖ at sampled
steps; per module the last forward's output mean, std and dead (ReLU: == 0) or saturated
(tanh |y| > 0.99, sigmoid y < 0.01 or > 0.99) fraction; non-finite counts of grads, weights and
module outputs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file

RELU_TYPES = (nn.ReLU, nn.ReLU6)


def module_kind(module: nn.Module) -> str:
    if isinstance(module, RELU_TYPES):
        return "relu"
    if isinstance(module, nn.Tanh):
        return "tanh"
    if isinstance(module, nn.Sigmoid):
        return "sigmoid"
    return "other"


def _fraction(kind: str, output: torch.Tensor) -> float:
    if kind == "relu":
        return float((output == 0).float().mean())
    if kind == "tanh":
        return float((output.abs() > 0.99).float().mean())
    if kind == "sigmoid":
        return float(((output < 0.01) | (output > 0.99)).float().mean())
    return float("nan")


@dataclass
class TorchSaw:
    """What torch itself said at each step, for the tests to compare with."""

    grads: list[dict[str, torch.Tensor | None]] = field(default_factory=list)  # per step
    outputs: list[dict[str, torch.Tensor]] = field(default_factory=list)  # per step
    losses: list[float] = field(default_factory=list)
    error: BaseException | None = None

    def first_non_finite_grad(self) -> tuple[int, list[str]] | None:
        for index, grads in enumerate(self.grads):
            names = [n for n, g in grads.items() if g is not None and not torch.isfinite(g).all()]
            if names:
                return index + 1, names
        return None


def record_loop(
    folder: Path,
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    batch: Callable[[int], tuple[torch.Tensor, torch.Tensor]],
    loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
    steps: int,
    *,
    update_every: int = 1,
    rank: int = 0,
    world_size: int = 1,
    name: str = "test run",
    raise_at: int | None = None,
    before_step: Callable[[int], None] | None = None,
) -> TorchSaw:
    """Train `model` for `steps` steps and write rank `rank` of a run folder at `folder`.
    `raise_at`: the loop raises ValueError at that step's forward (a script that raised);
    `before_step(step)` runs before each step's forward."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if rank == 0:
        write_run_file(folder, name=name, started="2026-01-01T00:00:00", command=["train.py"],
                       world_size=world_size, every=1, histograms_every=0)  # fmt: skip
    writer = RankStreamWriter(folder, rank)
    params = list(model.named_parameters())
    modules = [(n, m) for n, m in model.named_modules() if n]
    owner = {id(p): mname for mname, m in modules for p in m.parameters(recurse=False)}
    writer.write_schema({
        "schema": 0,
        "params": [{"name": n, "shape": list(p.shape), "dtype": str(p.dtype).removeprefix("torch."),
                    "module": owner.get(id(p), ""), "optimizer": 0} for n, p in params],
        "modules": [{"name": n, "type": type(m).__name__, "kind": module_kind(m)}
                    for n, m in modules],
    })  # fmt: skip
    writer.write_event("started", rank=rank)
    outputs: dict[str, torch.Tensor] = {}
    hooks = [m.register_forward_hook(_keeper(outputs, n)) for n, m in modules]
    saw = TorchSaw()
    step = 0
    try:
        for step in range(1, steps + 1):
            if before_step is not None:
                before_step(step)
            x, y = batch(step)
            if raise_at == step:
                raise ValueError(f"bad batch at step {step}")
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            _write_step(writer, step, params, modules, outputs, loss, optimizer,
                        sampled=(step % update_every == 0), saw=saw)  # fmt: skip
    except ValueError as error:
        saw.error = error
        writer.write_event("ended", status="error", step=step - 1,
                           error=f"{type(error).__name__}: {error}", traceback="")  # fmt: skip
    else:
        writer.write_event("ended", status="finished", step=steps)
    finally:
        for hook in hooks:
            hook.remove()
        writer.close()
    return saw


def _keeper(outputs: dict, name: str):
    def hook(module, inputs, output):
        if isinstance(output, torch.Tensor):
            outputs[name] = output.detach()

    return hook


def _write_step(writer, step, params, modules, outputs, loss, optimizer, *, sampled, saw):
    with torch.no_grad():
        grads = [p.grad for _, p in params]
        grad_norm = [float(g.norm()) if g is not None else float("nan") for g in grads]
        weight_norm = [float(p.norm()) for _, p in params]
        before = [p.detach().clone() for _, p in params] if sampled else None
        kinds = [module_kind(m) for _, m in modules]
        acts = [outputs.get(n) for n, _ in modules]
        act_mean = [float(a.float().mean()) if a is not None else np.nan for a in acts]
        act_std = [float(a.float().std()) if a is not None and a.numel() > 1 else np.nan
                   for a in acts]  # fmt: skip
        act_fraction = [_fraction(k, a) if a is not None else np.nan
                        for k, a in zip(kinds, acts, strict=True)]  # fmt: skip
        non_finite = {}
        for what, tensors in (("grad", grads), ("weight", [p for _, p in params]),
                              ("activation", acts)):  # fmt: skip
            counts = {str(i): int((~torch.isfinite(t)).sum()) for i, t in enumerate(tensors)
                      if t is not None and not torch.isfinite(t).all()}  # fmt: skip
            if counts:
                non_finite[what] = counts
        saw.grads.append({n: None if g is None else g.clone()
                          for (n, _), g in zip(params, grads, strict=True)})  # fmt: skip
        saw.outputs.append(dict(outputs))
        saw.losses.append(float(loss.detach()))
    optimizer.step()
    arrays = {
        "grad_norm": np.array(grad_norm, np.float32),
        "weight_norm": np.array(weight_norm, np.float32),
        "act_mean": np.array(act_mean, np.float32),
        "act_std": np.array(act_std, np.float32),
        "act_fraction": np.array(act_fraction, np.float32),
    }
    if sampled:
        with torch.no_grad():
            arrays["update_ratio"] = np.array(
                [float((p - b).norm() / b.norm()) if float(b.norm()) > 0 else np.nan
                 for (_, p), b in zip(params, before, strict=True)], np.float32)  # fmt: skip
    header = {"step": step, "optimizer": 0, "schema": 0, "time": 1.7e9 + step,
              "loss": float(loss.detach()), "scalars": {"lr": optimizer.param_groups[0]["lr"]},
              "dropped": 0, "non_finite": non_finite}  # fmt: skip
    writer.write_step(header, arrays)


def mlp(widths: list[int], activation: type[nn.Module], *, seed: int = 0) -> nn.Sequential:
    torch.manual_seed(seed)
    layers: list[nn.Module] = []
    for index, (a, b) in enumerate(zip(widths, widths[1:], strict=False)):
        layers.append(nn.Linear(a, b))
        if index < len(widths) - 2:
            layers.append(activation())
    return nn.Sequential(*layers)


def regression_batches(inputs: int, outputs: int, *, batch: int = 32, seed: int = 1):
    generator = torch.Generator().manual_seed(seed)
    teacher = torch.randn(inputs, outputs, generator=generator) / inputs**0.5

    def make(step: int):
        x = torch.randn(batch, inputs, generator=generator)
        return x, torch.tanh(x @ teacher)

    return make


def record_ddp(runs: list[tuple[Path, int | None]], *, steps: int = 8) -> None:
    """Two ranks of a real DistributedDataParallel job (gloo, CPU, two processes) write each run
    folder of `runs` in turn: (folder, desync_at), where rank 1 alone scales one weight at step
    desync_at (a desync bug; None: none)."""
    import torch.multiprocessing as mp

    for folder, _ in runs:
        Path(folder).mkdir(parents=True, exist_ok=True)
    store = Path(runs[0][0]).parent / ".ddp-store"
    runs = [(str(folder), desync_at) for folder, desync_at in runs]
    mp.spawn(_ddp_rank, args=(2, str(store), runs, steps), nprocs=2, join=True)


def _ddp_rank(rank: int, world_size: int, store: str, runs, steps: int) -> None:
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank,
                            world_size=world_size)  # fmt: skip
    try:
        for folder, desync_at in runs:
            model = DistributedDataParallel(mlp([8, 16, 16, 2], nn.ReLU, seed=0))
            optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

            def desync(step: int, model=model, desync_at=desync_at) -> None:
                if rank == 1 and step == desync_at:
                    with torch.no_grad():
                        model.module[2].weight.mul_(1.01)

            record_loop(Path(folder), model, optimizer, regression_batches(8, 2, seed=10 + rank),
                        nn.functional.mse_loss, steps, rank=rank, world_size=world_size,
                        before_step=desync)  # fmt: skip
    finally:
        dist.destroy_process_group()
