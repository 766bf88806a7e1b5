"""The Compare area: two checkpoints compared tensor by tensor (core/diff)."""
