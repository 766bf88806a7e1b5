"""The Runs area: following a watched run live (the run folder: docs/run_format.md)."""
