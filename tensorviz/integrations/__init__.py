"""Watching training that a framework's trainer runs: a Lightning `Callback`
(`tensorviz.integrations.lightning_callback`) and a transformers `TrainerCallback`
(`tensorviz.integrations.transformers_callback`). Both are thin: `tensorviz.watch()` records
every step through the optimizer's own hooks; a callback only says which model and optimizers
the trainer made, hands over the numbers the trainer logged, and closes the run.

Each module imports its framework when it is imported itself, never before, so `import
tensorviz` needs neither Lightning nor transformers.
"""
