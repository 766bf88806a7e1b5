# title: Creating tensors
# promises: scalar, vector, matrix, images, zeros, eye, noise, labels, steps, uninitialised
# Every way a learner makes a tensor; run it and click each name in the Workbench.

import torch

torch.manual_seed(0)  # the same "random" numbers on every run

scalar = torch.tensor(3)  # 0-d: a single number, shape []
vector = torch.tensor([1.0, 2.0, 3.0])  # Python floats → float32
matrix = torch.tensor([[1, 2], [3, 4]])  # Python ints → int64
images = torch.rand(4, 1, 28, 28)  # a batch of 4 one-channel 28×28 images, uniform [0, 1)
zeros = torch.zeros(2, 3)
eye = torch.eye(3)
noise = torch.randn(256, 128) * 0.01  # a typical small weight initialisation
labels = torch.randint(0, 10, (8,))  # class labels are int64
steps = torch.linspace(0, 1, 5)

# The trap: capital-T torch.Tensor(3) is the legacy constructor. It makes an UNINITIALISED
# float tensor of length 3 (whatever bytes were in memory), not the number 3.
uninitialised = torch.Tensor(3)

print("scalar", scalar.shape, scalar.dtype)
print("vector", vector.shape, vector.dtype)
print("matrix", matrix.shape, matrix.dtype)
print("images", tuple(images.shape), f"{images.element_size() * images.numel():,} bytes")
