"""Watching the user's own training: recording in their process, the run folder it writes, and
what the viewer and `tensorviz report` read back from it (no Qt; docs/run_format.md)."""
