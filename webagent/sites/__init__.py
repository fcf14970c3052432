"""Site adapters: what the generic layers know of a particular site."""
