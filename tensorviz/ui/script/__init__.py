"""The Script area: paste PyTorch code, run it off the GUI thread, see every tensor it made."""
