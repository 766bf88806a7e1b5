"""The thresholds of the diagnoses, each with why (measured on real torch loops in
tests/core/watch/test_diagnoses*.py: healthy ReLU/GELU/tanh MLPs under SGD, Adam and AdamW give
no finding; each broken one gives its own)."""

# A finding must hold over this many consecutive recorded steps (a shorter run: all its steps),
# so one noisy step, or the few steps a zero-initialised layer takes to grow, never fires one.
# The first non-finite value needs no window: it is a fact.
WINDOW = 10

# Vanishing: a layer's gradient, as root mean square per element, at most 1e-2 of the largest
# of the layers after it (two orders of magnitude). In healthy MLPs the layers stay within ~10×
# of each other, while each sigmoid layer divides the gradient by 4 or more (10 sigmoid layers:
# 7 orders). Per element, so a LayerNorm's 128 numbers compare with a 128 × 50k matrix. Needs 3
# layers or more; an exactly zero gradient is dead units, not vanishing.
VANISHING_RATIO = 1e-2
VANISHING_MIN_LAYERS = 3
# Layers whose gradients are sparse by nature (only the rows of the tokens seen): never vanishing.
SPARSE_GRADIENT_TYPES = ("Embedding", "EmbeddingBag")

# Exploding: the whole gradient norm at least 1e3 × where it started (the median of its first
# EARLY_STEPS finite steps: an explosion can take only a few), or a layer's gradient norm at
# least 1e2 × its weight norm (one SGD step at lr 1e-2 would then move the layer by its own
# size; healthy nets stay below 1) while its weights keep at least half their first norm (a
# zero-initialised layer starts tiny: its ratio says nothing). Non-finite gradients after such
# growth count as holding, and a run that ends in them has exploded even if fewer than WINDOW
# steps were left (a NaN never recovers).
EXPLODING_GROWTH = 1e3
EXPLODING_GRAD_TO_WEIGHT = 1e2
EXPLODING_WEIGHT_KEPT = 0.5
EARLY_STEPS = 3

# Update ratio ‖Δw‖/‖w‖ of weight matrices (2-d and up; every parameter if none is): healthy near
# 1e-3 (Karpathy's makemore rule of thumb); "far" is two orders of magnitude either way. Steps
# where a parameter had no gradient or did not move (ratio 0: frozen, lr 0) are left out.
UPDATE_RATIO_HIGH = 1e-1
UPDATE_RATIO_LOW = 1e-5

# Dead: a ReLU-family module whose outputs are exactly 0 for at least 99 % of the elements (a
# healthy ReLU is ~50 %; trained transformer MLPs reach ~95 % sparsity, so the bar sits above).
DEAD_FRACTION = 0.99
# Saturated: tanh |y| > 0.99 or sigmoid y < 0.01 / > 0.99 (local gradient below 0.02) for at
# least half the outputs (a well initialised tanh layer has a few %).
SATURATED_FRACTION = 0.5
