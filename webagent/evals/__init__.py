"""The eval: tasks, the strict verifier, stop reasons, baseline agents."""
