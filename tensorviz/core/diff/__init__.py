"""Two checkpoints (or two entries of one) compared tensor by tensor: what changed, and how much."""
