"""The rule families, one folder each."""
