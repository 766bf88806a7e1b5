"""tensorviz: see PyTorch tensors, strides, storage, autograd and training on real torch objects."""

from tensorviz.version import __version__

__all__ = ["__version__"]
