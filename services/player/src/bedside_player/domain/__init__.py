"""The player's rules, as plain code without I/O: state, decide, the offer, history."""
