"""The forward computation of a model, recorded module by module: module calls, the torch
operations between them, the tensors that flow (shape, dtype), repeated blocks folded, and the
nested layout the Architecture area draws."""
