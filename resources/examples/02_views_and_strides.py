# title: Views, copies and strides
# promises: x, x_t, x_view, row, x_contig, col, col_expanded, col_repeated
# Views share storage with their base; copies get their own. Open them in the Memory layout.

import torch

x = torch.arange(12).reshape(3, 4)  # contiguous: strides (4, 1)
x_t = x.T  # transpose: a view with strides (1, 4), not contiguous
x_view = x.view(4, 3)  # view needs a compatible layout: fine on contiguous x
row = x[0, :]  # slicing returns a view: writing into it writes into x
row[0] = 100
print("x[0, 0] after writing row[0]:", x[0, 0].item())

x_contig = x_t.contiguous()  # a real copy, laid out row by row again
print("x_t contiguous?", x_t.is_contiguous(), "| x_contig contiguous?", x_contig.is_contiguous())

try:
    x_t.view(-1)  # view after transpose: torch refuses
except RuntimeError as error:
    print("x_t.view(-1) failed:", str(error).splitlines()[0])

col = x[:, :1]  # shape [3, 1]
col_expanded = col.expand(3, 4)  # stride 0: one element read four times, no copy
col_repeated = col.repeat(1, 4)  # a real copy
print("expand strides", col_expanded.stride(), "| repeat strides", col_repeated.stride())
