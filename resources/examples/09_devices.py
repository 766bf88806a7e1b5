# title: Devices, with or without a GPU
# promises: weights, data, product, on_meta, planned
# One device for model and data, chosen when the script runs; the device error shown for real
# with the meta device, which every machine has (shapes and dtypes, no data).

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device, "· CUDA available:", torch.cuda.is_available())

weights = torch.randn(3, 2).to(device)  # model and data on the same device
data = torch.randn(4, 3).to(device)
product = data @ weights
print("data @ weights:", tuple(product.shape), "on", product.device)

if not torch.cuda.is_available():
    try:
        torch.ones(2, device="cuda")  # asking for the GPU anyway
    except (AssertionError, RuntimeError) as error:
        print("cuda without CUDA:", error)

on_meta = torch.ones(2, 3, device="meta")  # like a GPU tensor: not in the CPU's memory
try:
    on_meta + torch.ones(2, 3)  # two devices in one operation
except RuntimeError as error:
    print("two devices:", error)

planned = on_meta + torch.ones(2, 3).to("meta")  # one device: allowed (and still no data)
print("planned:", tuple(planned.shape), planned.device)
# For the app's explanation, run one failing line on its own: on_meta + torch.ones(2, 3)
