"""Accounts: a sign-in name and a password, kept as an Argon2id hash (argon2-cffi)."""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from rummykit.server.errors import ServerError

_HASHER = PasswordHasher()
#: a sign-in name: letters, digits, ``.``, ``_`` and ``-``
ACCOUNT_NAME = re.compile(r"^[A-Za-z0-9._-]{3,30}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 200
#: verified when an unknown name signs in, so that a wrong name costs the same time
_DUMMY = _HASHER.hash("not a password of anyone")


def account_key(name: str) -> str:
    """The sign-in name as stored (case does not matter); ``bad_request`` quoting it when
    it is not one."""
    if not ACCOUNT_NAME.match(name):
        raise ServerError("bad_request", f"name: {name[:40]!r} is not a sign-in name: use "
                          "3 to 30 letters, digits, '.', '_' or '-'")
    return name.lower()


def hash_password(password: str) -> str:
    """The stored form of a new password (``bad_request`` when too short or long)."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServerError("bad_request", f"password: use {MIN_PASSWORD} to {MAX_PASSWORD} "
                          f"characters (got {len(password)})")
    return _HASHER.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (None: no such account, checked against a
    dummy hash all the same)."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False
