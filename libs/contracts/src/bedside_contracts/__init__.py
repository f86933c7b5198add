"""The contracts of Bedside: every message model and every subject, in one library."""
