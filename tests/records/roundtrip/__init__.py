"""The records' example programs, run for real: which can run here, how, and the ones skipped with their reason."""
