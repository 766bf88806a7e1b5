# title: Autograd
# promises: x, y, w, b, inputs, out, loss, hidden
# Each operation on a tensor that requires grad records a node;
# backward() walks the nodes back to the leaves.

import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**2 + 3 * x  # dy/dx = 2x + 3 = 7 at x = 2
y.backward()
print("y =", y.item(), "| x.grad =", x.grad.item())
print("y.grad_fn =", type(y.grad_fn).__name__)

torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)  # leaves
b = torch.zeros(2, requires_grad=True)
inputs = torch.randn(4, 3)
hidden = torch.relu(inputs @ w + b)
hidden.retain_grad()  # a non-leaf keeps .grad only if asked
out = hidden.sigmoid()
loss = out.mean()
loss.backward()
print("w.grad shape:", tuple(w.grad.shape))
print("hidden.grad kept:", hidden.grad is not None)
# Select `loss` under Captured and press
# "Graph" to see the DAG autograd built.
