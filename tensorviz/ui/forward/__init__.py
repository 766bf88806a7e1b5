"""The Architecture area: the forward computation of a model, module by module, folded."""
