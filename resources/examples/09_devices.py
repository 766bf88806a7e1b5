# title: Devices, with or without a GPU
# promises: weights, data, product, on_meta, planned
# One device for model and data, chosen when the script runs; the device error shown for real
# with the meta device, which every machine has (shapes and dtypes, no data).
# 模型和数据放在同一个设备上，设备在脚本运行时选定；设备不一致的错误用 meta 设备真实演示，
# 每台机器都有 meta 设备（只有形状和数据类型，没有数据）。

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device, "· CUDA available:", torch.cuda.is_available())

weights = torch.randn(3, 2).to(device)  # model and data on the same device · 模型和数据在同一设备
data = torch.randn(4, 3).to(device)
product = data @ weights
print("data @ weights:", tuple(product.shape), "on", product.device)

if not torch.cuda.is_available():
    try:
        torch.ones(2, device="cuda")  # asking for the GPU anyway · 明知没有还是要用 GPU
    except (AssertionError, RuntimeError) as error:
        print("cuda without CUDA:", error)

# like a GPU tensor: not in the CPU's memory · 和 GPU 张量一样：不在 CPU 的内存里
on_meta = torch.ones(2, 3, device="meta")
try:
    on_meta + torch.ones(2, 3)  # two devices in one operation · 一个操作里用了两个设备
except RuntimeError as error:
    print("two devices:", error)

# one device: allowed (and still no data) · 同一个设备：可以（而且仍然没有数据）
planned = on_meta + torch.ones(2, 3).to("meta")
print("planned:", tuple(planned.shape), planned.device)
# For the app's explanation, run one failing line on its own: on_meta + torch.ones(2, 3)
# 想看应用的解释，就单独运行一行出错的代码：on_meta + torch.ones(2, 3)
