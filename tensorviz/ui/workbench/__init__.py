"""The Workbench area: build tensors, apply operations, see each result."""
