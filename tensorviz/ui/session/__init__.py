"""Session files in the window: File → Save / Open Session, the last session on start."""
