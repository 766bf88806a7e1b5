"""A DistributedDataParallel training run for torchrun (gloo, CPU).

    torchrun --standalone --nproc_per_node 2 ddp_training.py LOG_DIR [--desync-after STEP]
    torchrun --standalone --nproc_per_node 2 -m tensorviz watch --log-dir LOG_DIR \
        ddp_training.py -- LOG_DIR --unchanged [--desync-after STEP]

Each rank trains the same tiny model on its own batches; DDP averages the gradients, so every
parameter stays equal on all ranks, unless --desync-after: then rank 1 adds noise to one weight
(`DESYNCED`) under no_grad after that step, the kind of bug (a rank-local edit, a missed
broadcast) that leaves the ranks training different models. The script calls
`tensorviz.watch(ddp_model, optimizer)` itself, or with --unchanged never imports tensorviz
(`tensorviz watch` watches it from outside). Each rank writes what torch itself says before
every step (p.grad and p norms, from a step pre-hook of ours) to LOG_DIR/torch_rank<R>.json.
"""

import argparse
import json
from pathlib import Path

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

STEPS = 4
DESYNCED = "2.weight"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log_dir", type=Path)
    parser.add_argument("--desync-after", type=int, default=0)
    parser.add_argument("--unchanged", action="store_true")
    options = parser.parse_args()

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    ddp_model = DistributedDataParallel(model)
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
    run = None
    if not options.unchanged:
        import tensorviz

        run = tensorviz.watch(ddp_model, optimizer, log_dir=options.log_dir)

    seen_by_torch = []

    def read(optimizer, args, kwargs):
        seen_by_torch.append(
            {name: [p.grad.norm().item(), p.detach().norm().item()]
             for name, p in model.named_parameters()}
        )  # fmt: skip

    optimizer.register_step_pre_hook(read)
    batches = torch.Generator().manual_seed(1000 + rank)
    for step in range(1, STEPS + 1):
        x = torch.randn(8, 6, generator=batches)
        target = torch.randint(0, 3, (8,), generator=batches)
        loss = nn.functional.cross_entropy(ddp_model(x), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if run is not None:
            run.log(loss=loss.item())
        if step == options.desync_after and rank == 1:
            with torch.no_grad():
                dict(model.named_parameters())[DESYNCED].add_(0.05 * torch.randn(16, 3).T)
    if run is not None:
        run.close()
    (options.log_dir / f"torch_rank{rank}.json").write_text(json.dumps(seen_by_torch))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
