"""What the model reads: page-state snapshots, narration, result sentences, names (pure)."""
