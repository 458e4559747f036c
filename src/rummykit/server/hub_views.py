"""The hub's views of its tables (seats, the table, a resync, the lobby) and the
broadcasts to a table's connections."""

from __future__ import annotations

from rummykit.server.hub_base import HubBase
from rummykit.server.render import match_out
from rummykit.server.table import Event, LiveTable
from rummykit.server.wire import SeatOut, SeatsOut, SyncOut, TableOut


class HubViews(HubBase):
    """What a table looks like to its viewers and the lobby; sending it to them."""

    # -- views of a table ---------------------------------------------------------
    def connected(self, table_id: str, seat: int) -> bool:
        """Whether some connection plays ``seat``."""
        return any(c.recipient == seat for c in self.conns.get(table_id, ()))

    def seats_out(self, table: LiveTable) -> list[SeatOut]:
        """The seats as everyone may see them."""
        return [SeatOut(seat=s.seat, name=s.name, kind=s.kind,  # type: ignore[arg-type]
                        level=s.level, controller=s.controller,  # type: ignore[arg-type]
                        connected=self.connected(table.id, s.seat),
                        left=s.left,  # type: ignore[arg-type]
                        away_until=self._away.get((table.id, s.seat)))
                for s in table.seats]

    def table_out(self, table: LiveTable) -> TableOut:
        """Public facts about ``table``."""
        if table.remote_out is not None:
            return table.remote_out
        match = None if table.match is None else match_out(table.match, table.row.match_no)
        return TableOut(id=table.id, rules=table.rules.name, options=table.row.options,
                        status=table.status, version=table.version,  # type: ignore[arg-type]
                        seats=self.seats_out(table), match=match,
                        rematch_votes=sorted(table.rematch_votes), private=table.row.private)

    def sync_text(self, table: LiveTable, recipient: int) -> str:
        """A full resync for ``recipient``."""
        view, legal, moves = table.sync_parts(recipient)
        return SyncOut(version=table.version, table=self.table_out(table), view=view,
                       legal=legal, log=moves).model_dump_json()

    async def lobby(self) -> list[TableOut]:
        """The newest public tables (private ones are reached by link only): on its own,
        those in memory; as a node of a cluster, every node's, from storage (see
        :meth:`_cluster_lobby`)."""
        if self.cluster is not None:
            return await self._cluster_lobby()
        listed = (t for t in self.tables.values() if not t.row.private)
        newest = sorted(listed, key=lambda t: t.row.created, reverse=True)
        return [self.table_out(t) for t in newest[:self.settings.lobby_size]]

    async def _cluster_lobby(self) -> list[TableOut]:
        """The newest public tables waiting or playing, whichever node owns them: the list,
        statuses, versions and seats from storage; for a table owned elsewhere, which
        seats are connected and the match's standing from the summary its owner keeps in
        Redis (none yet: nobody connected, no match shown)."""
        assert self.cluster is not None
        rows = await self.read(self.storage.lobby, self.settings.lobby_size)
        remote = [row.id for row, _ in rows if row.id not in self.tables]
        summaries = await self.cluster.summaries(remote)
        listed = []
        for row, seats in rows:
            live = self.tables.get(row.id)
            if live is not None:
                listed.append(self.table_out(live))
                continue
            summary = summaries.get(row.id)
            connected = {} if summary is None else {s.seat: s.connected for s in summary.seats}
            listed.append(TableOut(
                id=row.id, rules=row.rules, options=row.options,
                status=row.status, version=row.version,  # type: ignore[arg-type]
                seats=[SeatOut(seat=s.seat, name=s.name, kind=s.kind,  # type: ignore[arg-type]
                               level=s.level, controller=s.controller,  # type: ignore[arg-type]
                               connected=connected.get(s.seat, False)) for s in seats],
                match=None if summary is None or row.status == "waiting" else summary.match,
                rematch_votes=[] if summary is None else summary.rematch_votes,
                private=row.private))
        return listed

    def _summarise(self, table: LiveTable) -> None:
        """As a node of a cluster: keep the lobby's summary of a table owned here."""
        if self.cluster is not None and table.owner is None:
            self.cluster.summarise(table.id, self.table_out(table).model_dump_json())

    # -- broadcasting -------------------------------------------------------------
    def _broadcast(self, table: LiveTable, events: list[Event]) -> None:
        for conn in list(self.conns.get(table.id, ())):
            for event in events:
                conn.send(event.text(conn.recipient))

    def _broadcast_seats(self, table: LiveTable) -> None:
        text = SeatsOut(seats=self.seats_out(table),
                        rematch_votes=sorted(table.rematch_votes)).model_dump_json()
        for conn in list(self.conns.get(table.id, ())):
            conn.send(text)
        self._summarise(table)
