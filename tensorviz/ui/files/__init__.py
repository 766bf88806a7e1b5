"""The Files area: open tensor files safely, see their tree and shared storages, save back."""
