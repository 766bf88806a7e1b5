"""Script: running user code off the GUI thread, capturing its tensors, its output and errors."""
