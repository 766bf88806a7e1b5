# title: Autograd
# promises: x, y, w, b, inputs, out, loss, hidden
# Each operation on a tensor that requires grad records a node;
# backward() walks the nodes back to the leaves.
# 对 requires_grad 的张量做的每个操作都会在计算图里记下一个节点；
# backward() 沿着这些节点反向走回叶子张量 (leaf tensor)。

import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**2 + 3 * x  # dy/dx = 2x + 3 = 7 at x = 2 · 在 x = 2 处 dy/dx = 2x + 3 = 7
y.backward()
print("y =", y.item(), "| x.grad =", x.grad.item())
print("y.grad_fn =", type(y.grad_fn).__name__)

torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)  # leaves · 叶子张量
b = torch.zeros(2, requires_grad=True)
inputs = torch.randn(4, 3)
hidden = torch.relu(inputs @ w + b)
hidden.retain_grad()  # a non-leaf keeps .grad only if asked · 非叶子张量要显式要求才保留 .grad
out = hidden.sigmoid()
loss = out.mean()
loss.backward()
print("w.grad shape:", tuple(w.grad.shape))
print("hidden.grad kept:", hidden.grad is not None)
# Select `loss` under Captured and press
# "Graph" to see the DAG autograd built.
# 在“已捕获的张量”列表里选中 `loss`，点“计算图”，
# 就能看到 autograd 建好的有向无环图 (DAG)。
