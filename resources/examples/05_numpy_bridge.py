# title: The NumPy bridge
# promises: shared, copied, back
# torch.from_numpy shares memory with the array; torch.tensor(arr) copies it.

import numpy as np
import torch

arr = np.arange(6, dtype=np.float32)
shared = torch.from_numpy(arr)  # zero-copy: the same bytes
copied = torch.tensor(arr)  # its own copy
arr[0] = 100.0  # a write through NumPy...
print("shared[0] =", shared[0].item(), "(sees the write) | copied[0] =", copied[0].item())

back = torch.linspace(0, 1, 4)
back_np = back.numpy()  # also shares memory: the Workbench shows the link
back_np[1] = -1.0
print("back after writing through NumPy:", back.tolist())
print("float64 leaks in from NumPy:", torch.from_numpy(np.zeros(2)).dtype)
