"""A nanoGPT train.py-shaped script, tiny: settings as globals that `--name=value` arguments
override (nanoGPT's configurator), random tokens, AdamW groups, gradient clipping. Run it as
`python tests/nanogpt/train.py --max_iters=5` or `tensorviz watch tests/nanogpt/train.py --
--max_iters=5`. `--fail_at=N` raises at iteration N (the tests of a script that raises);
`--report=PATH` writes what the script saw of sys.argv, __file__ and sys.path[0]."""

import json
import os
import sys
import time
from ast import literal_eval

import torch
from model import GPT, GPTConfig

n_layer = 2
n_head = 2
n_embd = 32
block_size = 16
batch_size = 4
vocab_size = 96
learning_rate = 1e-3
weight_decay = 0.1
beta1, beta2 = 0.9, 0.95
grad_clip = 1.0
max_iters = 4
log_interval = 1
fail_at = -1
sleep = 0.0
report = ""
seed = 1337

for arg in sys.argv[1:]:  # nanoGPT's configurator, in short
    key, _, value = arg.removeprefix("--").partition("=")
    if key not in globals():
        raise ValueError(f"Unknown config key: {key}")
    try:
        globals()[key] = literal_eval(value)
    except (SyntaxError, ValueError):
        globals()[key] = value

if report:
    with open(report, "w") as handle:
        json.dump({"argv": sys.argv, "file": __file__, "path0": sys.path[0],
                   "name": __name__}, handle)  # fmt: skip

torch.manual_seed(seed)
config = GPTConfig(block_size=block_size, vocab_size=vocab_size, n_layer=n_layer,
                   n_head=n_head, n_embd=n_embd)  # fmt: skip
model = GPT(config)
optimizer = model.configure_optimizers(weight_decay, learning_rate, (beta1, beta2), "cpu")


def get_batch():
    data = torch.randint(vocab_size, (batch_size, block_size + 1))
    return data[:, :-1].contiguous(), data[:, 1:].contiguous()


X, Y = get_batch()
for iter_num in range(max_iters):
    if iter_num == fail_at:
        raise RuntimeError(f"failing on purpose at iteration {iter_num}")
    logits, loss = model(X, Y)
    X, Y = get_batch()
    loss.backward()
    if grad_clip != 0.0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    if iter_num % log_interval == 0:
        print(f"iter {iter_num}: loss {loss.item():.4f}", flush=True)
    if sleep:
        time.sleep(sleep)
print("done", os.getpid())
