"""Many runs: batch files and the Ray fan-out."""
