"""A layered (Sugiyama-style) layout of any directed graph: layers, ordering, crossings, bands."""
