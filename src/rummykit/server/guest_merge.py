"""A guest's record merged into an account when its browser signs in.

Everything the guest had moves to the account, inside the sign-in's transaction: its
results per rule set are added to the account's, its seats become the account's, and its
rating is combined with the account's (:func:`combine`); the guest then points at the
account (``players.merged_into``), leaves the leaderboard, and its sessions end. Merging a
guest that is already merged changes nothing, so a repeated sign-in never counts a game
twice.
"""

from __future__ import annotations

import math

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from rummykit.server import ratings, schema


def combine(account: tuple[float, float], guest: tuple[float, float]
            ) -> tuple[float, float]:
    """One rating from two of the same person, each learnt from its own matches and the
    same starting rating: as Gaussians, their product divided by the starting one
    (precisions add, less the start's counted twice). A side never rated (still the
    start) leaves the other unchanged.

    >>> combine((30.0, 5.0), ratings.START) == (30.0, 5.0)
    True
    >>> mu, sigma = combine((30.0, 4.0), (20.0, 4.0))
    >>> 24 < mu < 26 and sigma < 4
    True
    """
    start_mu, start_sigma = ratings.START
    prior = 1 / start_sigma**2
    (mu_a, sigma_a), (mu_g, sigma_g) = account, guest
    weight_a, weight_g = 1 / sigma_a**2, 1 / sigma_g**2
    precision = weight_a + weight_g - prior
    if precision <= max(weight_a, weight_g):  # a side no surer than the start adds nothing
        return account if weight_a >= weight_g else guest
    mean = (mu_a * weight_a + mu_g * weight_g - start_mu * prior) / precision
    return mean, math.sqrt(1 / precision)


def merge_guest(db: Connection, guest_id: str, account_id: str) -> bool:
    """Move guest ``guest_id``'s record to the account player ``account_id`` (on ``db``,
    in the caller's transaction); False when there was nothing to do (the guest is
    already merged, has an account, or is the account)."""
    players = schema.players
    rows = {r.id: r for r in db.execute(
        select(players).where(players.c.id.in_(sorted({guest_id, account_id})))
        .order_by(players.c.id).with_for_update())}
    guest, account = rows.get(guest_id), rows.get(account_id)
    if guest is None or account is None or guest_id == account_id:
        return False
    if guest.merged_into is not None or guest.account is not None or guest.kind != "human":
        return False
    _add_results(db, guest_id, account_id)
    db.execute(update(schema.seats).where(schema.seats.c.player_id == guest_id)
               .values(player_id=account_id))
    if guest.rated:
        mu, sigma = combine((account.mu, account.sigma), (guest.mu, guest.sigma))
        db.execute(update(players).where(players.c.id == account_id)
                   .values(mu=mu, sigma=sigma, rated=account.rated + guest.rated))
    db.execute(update(players).where(players.c.id == guest_id)
               .values(merged_into=account_id, rated=0))
    db.execute(delete(schema.sessions).where(schema.sessions.c.player_id == guest_id))
    return True


def _add_results(db: Connection, guest_id: str, account_id: str) -> None:
    """Add the guest's results per rule set to the account's, and drop the guest's."""
    table = schema.player_stats
    mine = {r.rules: r for r in db.execute(select(table)
                                           .where(table.c.player_id == account_id))}
    for line in db.execute(select(table).where(table.c.player_id == guest_id)).all():
        had = mine.get(line.rules)
        if had is None:
            db.execute(insert(table).values(player_id=account_id, rules=line.rules,
                                            played=line.played, won=line.won,
                                            lost=line.lost))
        else:
            db.execute(update(table).where(table.c.player_id == account_id,
                                           table.c.rules == line.rules)
                       .values(played=had.played + line.played, won=had.won + line.won,
                               lost=had.lost + line.lost))
    db.execute(delete(table).where(table.c.player_id == guest_id))


def current_player(db: Connection, player_id: str) -> str:
    """Who ``player_id`` is now: the account a merged guest points at, or itself."""
    merged = db.execute(select(schema.players.c.merged_into)
                        .where(schema.players.c.id == player_id)).scalar()
    return str(merged) if merged else player_id
