# title: Broadcasting
# promises: a, b, total, column, row_vec, surprise, scaled
# Shapes are aligned from the right; each pair of sizes must be equal or contain a 1.
# 广播 (broadcasting)：形状从右往左对齐；每一对大小必须相等，或者其中一个是 1。

import torch

a = torch.ones(3, 1, 5)
b = torch.arange(2.0).reshape(2, 1)
total = a + b  # (3, 1, 5) with (2, 1) → (3, 2, 5) · (3, 1, 5) 与 (2, 1) → (3, 2, 5)
print("a", tuple(a.shape), "+ b", tuple(b.shape), "→", tuple(total.shape))

column = torch.tensor([[1.0], [2.0], [3.0]])  # [3, 1]
row_vec = torch.tensor([10.0, 20.0, 30.0, 40.0])  # [4]
# the silent surprise: [3, 1] with [4] → [3, 4]
# 不报错的意外：[3, 1] 与 [4] → [3, 4]
surprise = column + row_vec
print(
    "silent surprise:", tuple(column.shape), "+", tuple(row_vec.shape), "→", tuple(surprise.shape)
)

scaled = torch.rand(2, 3) * torch.tensor([1.0, 10.0, 100.0])  # scale each column · 按列缩放
try:
    torch.ones(2, 3) + torch.ones(4)
except RuntimeError as error:
    print("incompatible:", error)
