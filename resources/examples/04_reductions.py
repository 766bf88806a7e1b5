# title: Reductions
# promises: scores, col_sums, row_means, row_means_kept, best, best_class
# dim=0 collapses the rows (one result per column); dim=1 collapses the columns.
# 归约 (reduction)：dim=0 把各行合并（每列得到一个结果）；dim=1 把各列合并。

import torch

scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.9, 0.05, 0.05]])
col_sums = scores.sum(dim=0)  # shape [3] · 形状 [3]
row_means = scores.mean(dim=1)  # shape [4] · 形状 [4]
# shape [4, 1]: still broadcasts against scores
# 形状 [4, 1]：仍能与 scores 广播
row_means_kept = scores.mean(dim=1, keepdim=True)
best, best_class = scores.max(dim=1)  # values and their indices · 最大值及其索引
print("sum over rows:", col_sums)
print("argmax per row:", scores.argmax(dim=1).tolist())
print("total:", scores.sum().item(), "| int + float:", (torch.tensor([1, 2]) + 0.5).dtype)
