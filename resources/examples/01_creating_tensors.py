# title: Creating tensors
# promises: scalar, vector, matrix, images, zeros, eye, noise, labels, steps, uninitialised
# Every way a learner makes a tensor; run it and click each name in the Workbench.
# 初学者创建张量的各种方式；运行后，在工作台里逐个点击这些名字看看。

import torch

torch.manual_seed(0)  # the same "random" numbers on every run · 每次运行都得到同样的“随机”数

scalar = torch.tensor(3)  # 0-d: a single number, shape [] · 0 维：一个数，形状为 []
vector = torch.tensor([1.0, 2.0, 3.0])  # Python floats → float32 · Python 浮点数 → float32
matrix = torch.tensor([[1, 2], [3, 4]])  # Python ints → int64 · Python 整数 → int64
# a batch of 4 one-channel 28×28 images, uniform [0, 1)
# 一个批次的 4 张单通道 28×28 图像，取值在 [0, 1) 上均匀分布
images = torch.rand(4, 1, 28, 28)
zeros = torch.zeros(2, 3)
eye = torch.eye(3)
noise = torch.randn(256, 128) * 0.01  # a typical small weight initialisation · 常见的小权重初始化
labels = torch.randint(0, 10, (8,))  # class labels are int64 · 类别标签是 int64
steps = torch.linspace(0, 1, 5)

# The trap: capital-T torch.Tensor(3) is the legacy constructor. It makes an UNINITIALISED
# float tensor of length 3 (whatever bytes were in memory), not the number 3.
# 陷阱：大写 T 的 torch.Tensor(3) 是旧式构造函数。它创建的是长度为 3、未初始化的浮点张量
# （内存里原来是什么字节就是什么），而不是数字 3。
uninitialised = torch.Tensor(3)

print("scalar", scalar.shape, scalar.dtype)
print("vector", vector.shape, vector.dtype)
print("matrix", matrix.shape, matrix.dtype)
print("images", tuple(images.shape), f"{images.element_size() * images.numel():,} bytes")
