"""The `rummykit` command line."""
