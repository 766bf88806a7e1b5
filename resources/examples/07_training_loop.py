# title: The training loop (linear regression)
# promises: x, y, w, b, loss
# The reference experiment: learn w ≈ 2.5 and b ≈ 1.8 from noisy points by gradient descent.
# 基准实验：用梯度下降从带噪声的点中学出 w ≈ 2.5、b ≈ 1.8（线性回归）。

import numpy as np
import torch

np.random.seed(42)
x_np = np.random.rand(100, 1) * 10
y_np = 2.5 * x_np + 1.8 + 2 * np.random.randn(100, 1)
x = torch.tensor(x_np, dtype=torch.float32)
y = torch.tensor(y_np, dtype=torch.float32)

torch.manual_seed(42)
w = torch.randn(1, requires_grad=True)
b = torch.randn(1, requires_grad=True)
lr = 0.01  # the learning rate · 学习率

for epoch in range(500):
    prediction = w * x + b
    loss = ((prediction - y) ** 2).mean()  # mean squared error · 均方误差损失
    loss.backward()  # fills w.grad and b.grad · 填好 w.grad 和 b.grad（反向传播）
    with torch.no_grad():  # the update itself must not be recorded · 更新这一步不能记进计算图
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()  # gradients accumulate unless zeroed · 不清零，梯度就会累积
    b.grad.zero_()
    if (epoch + 1) % 100 == 0:
        print(f"epoch {epoch + 1:3d}  loss {loss.item():.3f}  w {w.item():.3f}  b {b.item():.3f}")

print(f"learned w = {w.item():.2f} (true 2.5), b = {b.item():.2f} (true 1.8)")
