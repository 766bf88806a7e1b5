"""The Training area: the reference linear regression, live, step by step."""
