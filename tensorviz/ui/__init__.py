"""Qt widgets and graphics items; one module (or sub-package) per area of the window."""
