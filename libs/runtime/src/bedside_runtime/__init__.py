"""Plumbing shared by every Bedside process: settings, logging, the bus, the embedded server."""
