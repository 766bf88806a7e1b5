"""The workspace and the tensors a user makes: creation, operations, identity, undo, budgets.

The Workbench area presents this package; every other area reads the workspace it holds.
"""
