"""Files: reading tensor files safely, describing their contents, saving atomically."""
