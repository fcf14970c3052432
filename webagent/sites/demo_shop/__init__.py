"""The one place that knows the bundled demo shop."""
