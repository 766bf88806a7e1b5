"""tensorviz: see PyTorch tensors, strides, storage, autograd and training on real torch objects."""

__version__ = "0.1.0"
