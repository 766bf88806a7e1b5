# title: The NumPy bridge
# promises: shared, copied, back
# torch.from_numpy shares memory with the array; torch.tensor(arr) copies it.
# torch.from_numpy 与数组共享内存；torch.tensor(arr) 会拷贝一份。

import numpy as np
import torch

arr = np.arange(6, dtype=np.float32)
shared = torch.from_numpy(arr)  # zero-copy: the same bytes · 零拷贝：同一份字节
copied = torch.tensor(arr)  # its own copy · 自己的一份拷贝
arr[0] = 100.0  # a write through NumPy... · 通过 NumPy 写入……
print("shared[0] =", shared[0].item(), "(sees the write) | copied[0] =", copied[0].item())

back = torch.linspace(0, 1, 4)
# also shares memory: the Workbench shows the link
# 同样共享内存：工作台会显示这层关系
back_np = back.numpy()
back_np[1] = -1.0
print("back after writing through NumPy:", back.tolist())
print("float64 leaks in from NumPy:", torch.from_numpy(np.zeros(2)).dtype)
