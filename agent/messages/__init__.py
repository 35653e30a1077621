"""The one catalogue of what Richeng says to a person, in zh and en (see catalogue.py)."""
