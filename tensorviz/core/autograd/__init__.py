"""Autograd graph: the DAG from grad_fn, presets, backward steps, module groups."""
