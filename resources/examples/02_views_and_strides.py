# title: Views, copies and strides
# promises: x, x_t, x_view, row, x_contig, col, col_expanded, col_repeated
# Views share storage with their base; copies get their own. Open them in the Memory layout.
# 视图 (view) 与原张量共享存储；拷贝 (copy) 有自己的存储。在内存布局里打开它们看看。

import torch

x = torch.arange(12).reshape(3, 4)  # contiguous: strides (4, 1) · 连续：步幅为 (4, 1)
x_t = x.T  # transpose: a view with strides (1, 4), not contiguous · 转置：视图，步幅 (1, 4)
# view needs a compatible layout: fine on contiguous x
# view 需要相容的内存布局：x 是连续的，没问题
x_view = x.view(4, 3)
# slicing returns a view: writing into it writes into x
# 切片返回视图：往里写就是往 x 里写
row = x[0, :]
row[0] = 100
print("x[0, 0] after writing row[0]:", x[0, 0].item())

x_contig = x_t.contiguous()  # a real copy, laid out row by row again · 真正的拷贝，重新按行排列
print("x_t contiguous?", x_t.is_contiguous(), "| x_contig contiguous?", x_contig.is_contiguous())

try:
    x_t.view(-1)  # view after transpose: torch refuses · 转置后再 view：torch 会拒绝
except RuntimeError as error:
    print("x_t.view(-1) failed:", str(error).splitlines()[0])

col = x[:, :1]  # shape [3, 1] · 形状 [3, 1]
# stride 0: one element read four times, no copy · 步幅为 0：同一个元素读四次，不拷贝
col_expanded = col.expand(3, 4)
col_repeated = col.repeat(1, 4)  # a real copy · 真正的拷贝
print("expand strides", col_expanded.stride(), "| repeat strides", col_repeated.stride())
