"""Training: the reference linear regression, its data, remedies for divergence, reports."""
