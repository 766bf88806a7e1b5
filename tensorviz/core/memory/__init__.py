"""Memory layout: strides, which storage element each index reads, sharing, broadcasting."""
