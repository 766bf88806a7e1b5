# title: The errors learners hit
# promises: a, b, labels, x_t, leaf, weights
# Each mistake runs inside try/except, so the script finishes and prints torch's own message.
# To see the app's explanation of one (why it happened, with your sizes, and the fix), run
# its line on its own, without the try/except: e.g. a new script with  a @ b

import torch

a = torch.randn(2, 3)
b = torch.randn(4, 5)
try:
    a @ b  # inner sizes 3 and 4 disagree
except RuntimeError as error:
    print("matmul:", error)

labels = torch.tensor([1, 0, 2])  # int64
weights = torch.randn(3)  # float32
try:
    torch.dot(weights, labels)  # dtypes must match
except RuntimeError as error:
    print("dtype:", error)

x_t = torch.arange(6.0).reshape(2, 3).T
try:
    x_t.view(6)  # a transposed tensor is not contiguous
except RuntimeError as error:
    print("view:", str(error).splitlines()[0])

leaf = torch.ones(3, requires_grad=True)
try:
    leaf.add_(1)  # in-place on a leaf that requires grad
except RuntimeError as error:
    print("in-place on leaf:", error)

loss = (leaf * 2).sum()
loss.backward()
try:
    loss.backward()  # the graph was freed by the first backward
except RuntimeError as error:
    print("second backward:", str(error).splitlines()[0])
