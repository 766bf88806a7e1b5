# title: The errors learners hit
# promises: a, b, labels, x_t, leaf, weights
# Each mistake runs inside try/except, so the script finishes and prints torch's own message.
# To see the app's explanation of one (why it happened, with your sizes, and the fix), run
# its line on its own, without the try/except: e.g. a new script with  a @ b
# 每个错误都放在 try/except 里运行，所以脚本能跑完，并打印 torch 自己的报错信息。
# 想看应用对某个错误的解释（为什么出错、用你的尺寸说明、怎么修正），就把那一行单独运行，
# 不要 try/except：例如新建一个只有  a @ b  的脚本。

import torch

a = torch.randn(2, 3)
b = torch.randn(4, 5)
try:
    a @ b  # inner sizes 3 and 4 disagree · 内侧的大小 3 和 4 对不上
except RuntimeError as error:
    print("matmul:", error)

labels = torch.tensor([1, 0, 2])  # int64
weights = torch.randn(3)  # float32
try:
    torch.dot(weights, labels)  # dtypes must match · 数据类型 (dtype) 必须一致
except RuntimeError as error:
    print("dtype:", error)

x_t = torch.arange(6.0).reshape(2, 3).T
try:
    x_t.view(6)  # a transposed tensor is not contiguous · 转置后的张量不连续
except RuntimeError as error:
    print("view:", str(error).splitlines()[0])

leaf = torch.ones(3, requires_grad=True)
try:
    leaf.add_(1)  # in-place on a leaf that requires grad · 对需要梯度的叶子张量做原位操作
except RuntimeError as error:
    print("in-place on leaf:", error)

loss = (leaf * 2).sum()
loss.backward()
try:
    loss.backward()  # the graph was freed by the first backward · 第一次反向传播已释放计算图
except RuntimeError as error:
    print("second backward:", str(error).splitlines()[0])
