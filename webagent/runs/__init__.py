"""One run: config, run folder, checkpoint + journal, resume/reconcile, replay, chat sessions."""
