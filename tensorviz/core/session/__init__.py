"""Session files: the whole workspace (values, dtypes, devices, strides, storage sharing, names,
history and provenance), the script text and the Training configuration in one zip of JSON and
safetensors, written atomically and read without running anything (docs/session_format.md).
It composes the other areas' state, so it stands above them in the layers."""
