"""A real training loop written to a run folder, for the screenshot tour, the benchmark and
the tests: a deep sigmoid MLP whose first layers' gradients vanish, trained with SGD on a
small regression. It writes what the recorder writes (docs/run_format.md) from torch's own
numbers, so the viewer can be checked against `p.grad.norm()` without the recorder's hooks.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file

HISTOGRAM_BINS = 32


def deep_sigmoid_mlp(depth: int = 8, width: int = 16, seed: int = 0) -> nn.Sequential:
    torch.manual_seed(seed)
    layers: list[nn.Module] = [nn.Linear(4, width), nn.Sigmoid()]
    for _ in range(depth - 2):
        layers += [nn.Linear(width, width), nn.Sigmoid()]
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def _module_kind(module: nn.Module) -> str:
    if isinstance(module, nn.Sigmoid):
        return "sigmoid"
    if isinstance(module, nn.Tanh):
        return "tanh"
    if isinstance(module, (nn.ReLU, nn.LeakyReLU, nn.GELU)):
        return "relu"
    return "other"


def _histogram(values: torch.Tensor) -> tuple[float, float, np.ndarray]:
    flat = values.detach().float().flatten()
    flat = flat[torch.isfinite(flat)]
    if flat.numel() == 0:
        return 0.0, 1.0, np.zeros(HISTOGRAM_BINS, np.uint32)
    low, high = float(flat.min()), float(flat.max())
    if high <= low:
        high = low + 1e-12
    counts = torch.histc(flat, HISTOGRAM_BINS, low, high)
    return low, high, counts.numpy().astype(np.uint32)


def record_training(
    folder: str | Path,
    model: nn.Module | None = None,
    steps: int = 300,
    *,
    lr: float = 0.1,
    histograms_every: int = 50,
    ratio_every: int = 10,
    raise_at: int | None = None,
    finish: bool = True,
) -> dict[str, list[float]]:
    """Train `model` (default: deep_sigmoid_mlp()) for `steps` SGD steps and write the run
    folder. Returns torch's own gradient norms per parameter name, one per step, to check the
    viewer against. `raise_at`: the loop raises a RuntimeError at that step (an "error" end)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model = model if model is not None else deep_sigmoid_mlp()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(1)
    pool_x = torch.randn(1024, 4, generator=generator)
    pool_y = torch.sin(2 * pool_x.sum(dim=1, keepdim=True))
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    modules = [(n, m) for n, m in model.named_modules() if n]
    write_run_file(folder, name=folder.name, started=time.strftime("%Y-%m-%dT%H:%M:%S"),
                   command=["example_run"], world_size=1, every=1,
                   histograms_every=histograms_every)  # fmt: skip
    writer = RankStreamWriter(folder, 0)
    writer.write_schema({
        "schema": 0,
        "params": [{"name": n, "shape": list(p.shape), "dtype": str(p.dtype).replace("torch.", ""),
                    "module": n.rsplit(".", 1)[0], "optimizer": 0} for n, p in named],
        "modules": [{"name": n, "type": type(m).__name__, "kind": _module_kind(m)}
                    for n, m in modules],
    })  # fmt: skip
    writer.write_event("started")
    outputs: dict[str, torch.Tensor] = {}
    hooks = [m.register_forward_hook(lambda _m, _i, out, n=n: outputs.__setitem__(n, out.detach()))
             for n, m in modules]  # fmt: skip
    norms: dict[str, list[float]] = {n: [] for n, _ in named}
    try:
        for step in range(1, steps + 1):
            if raise_at is not None and step == raise_at:
                raise RuntimeError(f"the loss became NaN at step {step}")
            batch = torch.randint(0, len(pool_x), (32,), generator=generator)
            x, y = pool_x[batch], pool_y[batch]
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            grads = [p.grad for _, p in named]
            grad_norm = torch.stack(torch._foreach_norm(grads)).numpy().astype(np.float32)
            weights = [p.detach() for _, p in named]
            weight_norm = torch.stack(torch._foreach_norm(weights)).numpy().astype(np.float32)
            before = [w.clone() for w in weights] if step % ratio_every == 0 else None
            for name, p in named:
                norms[name].append(float(p.grad.norm()))  # torch's own, to check against
            optimizer.step()
            arrays = {"grad_norm": grad_norm, "weight_norm": weight_norm}
            if before is not None:
                deltas = torch._foreach_sub([p.detach() for _, p in named], before)
                ratio = torch.stack(torch._foreach_norm(deltas)) / torch.tensor(weight_norm)
                arrays["update_ratio"] = ratio.numpy().astype(np.float32)
            arrays.update(_activation_arrays(modules, outputs))
            writer.write_step({"step": step, "optimizer": 0, "schema": 0, "time": time.time(),
                               "loss": float(loss.detach()), "scalars": {"lr": lr}, "dropped": 0},
                              arrays)  # fmt: skip
            if step % histograms_every == 0 or step == 1:
                _write_histograms(writer, step, named, modules, outputs)
    except RuntimeError as error:
        writer.write_event("ended", status="error", step=step - 1, error=str(error))
        return norms
    finally:
        for hook in hooks:
            hook.remove()
    if finish:
        writer.write_event("ended", status="finished", step=steps)
    writer.close()
    return norms


def _activation_arrays(modules, outputs) -> dict[str, np.ndarray]:
    mean, std, fraction = [], [], []
    for name, module in modules:
        out = outputs.get(name)
        if out is None:
            mean.append(np.nan), std.append(np.nan), fraction.append(np.nan)
            continue
        out = out.float()
        mean.append(float(out.mean()))
        std.append(float(out.std()) if out.numel() > 1 else 0.0)
        kind = _module_kind(module)
        if kind == "sigmoid":
            fraction.append(float(((out < 0.01) | (out > 0.99)).float().mean()))
        elif kind == "tanh":
            fraction.append(float((out.abs() > 0.99).float().mean()))
        elif kind == "relu":
            fraction.append(float((out == 0).float().mean()))
        else:
            fraction.append(np.nan)
    as_f4 = lambda values: np.array(values, np.float32)  # noqa: E731
    return {"act_mean": as_f4(mean), "act_std": as_f4(std), "act_fraction": as_f4(fraction)}


def _write_histograms(writer, step, named, modules, outputs) -> None:
    tensors, counts = [], []
    kinds = (
        ("weight", [(n, p.detach()) for n, p in named]),
        ("grad", [(n, p.grad) for n, p in named if p.grad is not None]),
        ("activation", [(n, outputs[n]) for n, _ in modules if n in outputs]),
    )
    for kind, items in kinds:
        for name, values in items:
            low, high, binned = _histogram(values)
            tensors.append([kind, name, low, high])
            counts.append(binned)
    writer.write_histograms({"step": step, "bins": HISTOGRAM_BINS, "tensors": tensors},
                            np.concatenate(counts))  # fmt: skip
