"""Canonical time symbols: the grammar the model speaks and the code that turns it into intervals."""
