"""Alembic migrations of the server's database, shipped with the package."""
