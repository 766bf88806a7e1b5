"""The Memory layout area: logical grid, storage strips, broadcasting explainer."""
