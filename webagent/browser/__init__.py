"""The page: Chromium launch, contexts, obstruction handling, consent words, the headed panel."""
