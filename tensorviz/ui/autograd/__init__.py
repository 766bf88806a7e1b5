"""The Autograd graph area: the DAG autograd built, laid out by core, stepped through."""
