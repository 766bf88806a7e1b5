"""The reference experiment of MISSION.md written as a learner writes it, in plain torch: what
the Training core is compared with."""

import numpy as np
import torch


def reference_data(seed=42, n=100):
    np.random.seed(seed)
    x = np.random.rand(n, 1) * 10
    y = 2.5 * x + 1.8 + np.random.randn(n, 1) * 2
    return torch.from_numpy(x).float(), torch.from_numpy(y).float()


def plain_loop(lr=0.01, epochs=500, zero_grad=True, seed=42):
    """The reference experiment exactly as MISSION.md writes it."""
    x, y = reference_data(seed)
    torch.manual_seed(seed)
    w = torch.randn(1, requires_grad=True)
    b = torch.randn(1, requires_grad=True)
    losses = []
    for _ in range(epochs):
        y_pred = w * x + b
        loss = ((y_pred - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        losses.append(loss.item())
        if zero_grad:
            w.grad.zero_()
            b.grad.zero_()
    return w.item(), b.item(), losses
