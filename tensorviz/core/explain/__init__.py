"""Error explanations: a torch error becomes torch's message, a plain explanation and the fix."""
