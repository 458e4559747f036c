"""Several ``rummykit serve`` processes (nodes) on one database as one server, through Redis.

- **Ownership**: each live table has one owner node at a time, holding the lease
  ``rk:lease:{table}`` (renewed; it expires within ``lease_seconds`` of the owner's death).
  Only the owner changes the table, runs its bots and timers; the event log's unique
  ``(table, version)`` key fences a stale owner's commit.
- **Forwarding**: a node serving a client for a table it does not own forwards the
  request (a move, a join, a hello...) to the owner over the owner's channel
  ``rk:to:{node}`` and waits for the reply on its own.
- **Events**: the owner treats a client on another node as a :class:`RemoteOutbox`; what
  it sends goes, in order, over that node's channel to the client's socket.
- **Failure**: nodes announce themselves (``rk:node:{node}``, renewed with the leases, and
  the members' set ``rk:nodes``). A node is dead once its key has expired, or as soon as
  nobody listens on its channel any more (a killed process's Redis connections close at
  once; :data:`SILENT_SECONDS` of silence, seen twice, to ride out a reconnect). Every node
  watches the members (every :data:`WATCH_SECONDS`): a dead node's leases may be taken over
  at once (:meth:`Cluster.take`, fenced by the versions as ever), its clients here are
  closed (code 1012: reconnect) and its tables adopted in batches (:mod:`adoption`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import redis
import redis.asyncio as aioredis

from rummykit.server.errors import ServerError
from rummykit.server.wire import TableOut

if TYPE_CHECKING:
    from rummykit.server.hub import Hub, Outbox

log = logging.getLogger("rummykit.server")

#: renew for ``ARGV[2]`` ms the lease of each table in ``KEYS`` held by ``ARGV[1]``, or
#: take it back if it ran out and nobody took it (commits stay fenced by the versions);
#: returns the keys another node holds now
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
#: take for ``ARGV[1]`` (for ``ARGV[2]`` ms) the lease of each table in ``KEYS`` that nobody
#: holds or that a dead node (``ARGV[3:]``) holds; returns the keys taken
_TAKE = """
local dead = {}
for i = 3, #ARGV do dead[ARGV[i]] = true end
local taken = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if not holder or dead[holder] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    table.insert(taken, key)
  end
end
return taken
"""
#: delete ``KEYS[1]`` if ``ARGV[1]`` holds it
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(table_id: str) -> str:
    """The Redis key of a table's lease."""
    return f"rk:lease:{table_id}"


def summary_key(table_id: str) -> str:
    """The Redis key of the lobby's summary of a table (``TableOut`` JSON, by its owner)."""
    return f"rk:summary:{table_id}"


#: seconds a table's summary outlives its last update (the lobby reads storage first:
#: a stale one only says who was connected)
SUMMARY_SECONDS = 3600


#: the set of the nodes that announced themselves (a dead one is removed by the first node
#: to see it dead)
NODES_KEY = "rk:nodes"
#: seconds between two looks at the other nodes' liveness
WATCH_SECONDS = 0.25
#: seconds a live node's channel may go without a listener (its pub/sub connection
#: reconnecting) before the node counts as dead
SILENT_SECONDS = 0.3


def node_key(node: str) -> str:
    """The Redis key saying a node is alive."""
    return f"rk:node:{node}"


def channel(node: str) -> str:
    """The pub/sub channel of a node."""
    return f"rk:to:{node}"


class OwnerGone(ServerError):
    """A forwarded request's owner died before answering (``unavailable``)."""


class RemoteOutbox:
    """A client connected to another node, as the owner's hub sees it."""

    def __init__(self, cluster: Cluster, node: str, conn_id: str, table_id: str,
                 recipient: int) -> None:
        self.cluster = cluster
        self.node = node
        self.conn_id = conn_id
        self.table_id = table_id
        self.recipient = recipient

    def send(self, text: str) -> None:
        """Queue one message for the client (in order with the rest to its node)."""
        self.cluster.post(self.node, {"k": "out", "c": self.conn_id, "t": text})

    def drop(self) -> None:
        """Tell the client's node to close it (it reconnects)."""
        self.cluster.post(self.node, {"k": "close", "c": self.conn_id})


class Cluster:
    """This node's link to the others: leases, forwarding, remote clients."""

    def __init__(self, hub: Hub, url: str, lease_seconds: float) -> None:
        self.hub = hub
        self.node = secrets.token_hex(6)
        pool = aioredis.BlockingConnectionPool.from_url(  # waits for a free connection
            url, max_connections=64, timeout=20, decode_responses=True)
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        #: node: (when checked, alive), so that waiting calls share one check
        self._alive: dict[str, tuple[float, bool]] = {}
        #: node: since when its channel has had no listener (monotonic seconds)
        self._silent: dict[str, float] = {}
        #: nodes seen dead lately (a live node wrongly seen dead, its pub/sub connection
        #: down a while, leaves it once seen alive again)
        self.dead: set[str] = set()
        self.lease_ms = int(lease_seconds * 1000)
        self.beat = lease_seconds / 3
        #: local clients of tables owned elsewhere: conn id -> (connection, owner node)
        self.attached: dict[str, tuple[Outbox, str]] = {}
        #: clients on other nodes of tables owned here: (node, conn id) -> outbox
        self.remote: dict[tuple[str, str], RemoteOutbox] = {}
        self._gone: set[tuple[str, str]] = set()
        self._ids = itertools.count()
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._outgoing: dict[str, list[dict[str, Any]]] = {}
        self._summaries: dict[str, str] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        #: leases and liveness are renewed from a thread of their own with a blocking
        #: client, so that a busy event loop (loading many tables) does not lose them
        self._sync = redis.Redis.from_url(url, decode_responses=True)
        self._renew = self._sync.register_script(_RENEW)
        self._stopped = threading.Event()
        self._renewer = threading.Thread(target=self._renew_forever,
                                         name="rummykit-leases", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._release = self.redis.register_script(_RELEASE)
        self._take = self.redis.register_script(_TAKE)
        self._pubsub = self.redis.pubsub()

    # -- life cycle ---------------------------------------------------------------
    async def start(self) -> None:
        """Announce this node, listen on its channel, start the heartbeat."""
        await self._pubsub.subscribe(channel(self.node))  # listening before it is known
        await self.redis.set(node_key(self.node), "1", px=self.lease_ms)
        await self.redis.sadd(NODES_KEY, self.node)
        self._loop = asyncio.get_running_loop()
        self._renewer.start()
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._write()),
                       asyncio.create_task(self._heartbeat()),
                       asyncio.create_task(self._watch_nodes())]
        log.info("cluster node %s up", self.node)

    async def stop(self) -> None:
        """Release this node's leases and go."""
        self._stopped.set()
        await asyncio.to_thread(self._renewer.join)
        tasks = [*self._tasks, *self._running]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            for table_id in list(self.hub.tables):
                await self._release(keys=[lease_key(table_id)], args=[self.node])
            await self.redis.delete(node_key(self.node))
            await self.redis.srem(NODES_KEY, self.node)
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    # -- leases -------------------------------------------------------------------
    async def claim(self, table_id: str) -> str | None:
        """Become the table's owner (None) or name its live owner; waits while a dead
        owner's lease runs out."""
        deadline = asyncio.get_running_loop().time() + self.lease_ms / 1000 + 2
        key = lease_key(table_id)
        while True:
            if await self.redis.set(key, self.node, px=self.lease_ms, nx=True):
                return None
            holder = await self.redis.get(key)
            if holder == self.node:
                return None
            if holder is not None and await self.node_alive(str(holder)):
                return str(holder)
            if holder is not None and await self.take([table_id], {str(holder)}):
                return None  # a dead owner's lease, taken over
            now = asyncio.get_running_loop().time()
            if now > deadline:
                raise ServerError("unavailable", "the table is changing hands: try again")
            await asyncio.sleep(0.02)  # it changed hands meanwhile: look again

    async def take(self, table_ids: list[str], dead: set[str]) -> list[str]:
        """Become the owner of those of ``table_ids`` whose lease nobody holds or a node
        of ``dead`` holds (one script for all); the ones taken."""
        if not table_ids:
            return []
        taken = await self._take(keys=[lease_key(t) for t in table_ids],
                                 args=[self.node, self.lease_ms, *sorted(dead)])
        return [str(key).split(":", 2)[2] for key in taken]

    async def holders(self, table_ids: list[str]) -> list[str | None]:
        """The node holding each table's lease (None: nobody)."""
        if not table_ids:
            return []
        found = await self.redis.mget([lease_key(t) for t in table_ids])
        return [None if h is None else str(h) for h in found]

    def summarise(self, table_id: str, text: str) -> None:
        """Keep the lobby's summary of a table owned here (in the background; the newest
        of those queued wins)."""
        first = not self._summaries
        self._summaries[table_id] = text
        if first:
            self._spawn(self._write_summaries())

    async def _write_summaries(self) -> None:
        await asyncio.sleep(0)  # gather what this turn of the loop summarised
        batch, self._summaries = self._summaries, {}
        with contextlib.suppress(Exception):  # Redis down: the lobby shows less
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id, text in batch.items():
                    pipe.set(summary_key(table_id), text, ex=SUMMARY_SECONDS)
                await pipe.execute()

    async def summaries(self, table_ids: list[str]) -> dict[str, TableOut]:
        """The lobby's summaries of these tables that their owners keep."""
        if not table_ids:
            return {}
        try:
            found = await self.redis.mget([summary_key(t) for t in table_ids])
        except Exception:  # Redis down: the lobby shows what storage says
            log.warning("lobby summaries unavailable", exc_info=True)
            return {}
        return {t: TableOut.model_validate_json(text)
                for t, text in zip(table_ids, found, strict=True) if text is not None}

    def release(self, table_id: str) -> None:
        """Give a table's lease up (in the background)."""
        async def go() -> None:
            with contextlib.suppress(Exception):
                await self._release(keys=[lease_key(table_id)], args=[self.node])
        self._spawn(go())

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.beat)
            try:
                await self._beat()
            except Exception:  # Redis down for a moment: the next beat tries again
                log.warning("cluster heartbeat failed", exc_info=True)

    def _renew_forever(self) -> None:
        """The renewer thread: this node's liveness key and its tables' leases."""
        while not self._stopped.wait(self.beat):
            try:
                self._sync.set(node_key(self.node), "1", px=self.lease_ms)
                self._sync.sadd(NODES_KEY, self.node)  # again: Redis may have restarted
                owned = _keys(self.hub.tables)
                if not owned:
                    continue
                lost = self._renew(keys=[lease_key(t) for t in owned],
                                   args=[self.node, self.lease_ms])
                if lost and self._loop is not None:
                    ids = [str(key).split(":", 2)[2] for key in lost]
                    self._loop.call_soon_threadsafe(self._lost, ids)
            except Exception:  # Redis down for a moment: the next round tries again
                log.warning("lease renewal failed", exc_info=True)
        self._sync.close()

    def _lost(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            log.warning("table %s: another node holds its lease; dropping it", table_id)
            self.hub.drop(table_id)

    async def _beat(self) -> None:
        await self.hub.adopt_orphans()

    async def _watch_nodes(self) -> None:
        """Look at the other nodes every :data:`WATCH_SECONDS`; when one has died, forget
        its clients, close ours of its tables and adopt its tables at once."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                if await self._check_nodes():
                    await self.hub.adopt_orphans(now=True)
            except Exception:  # Redis down for a moment: the next look tries again
                log.warning("watching the nodes failed", exc_info=True)

    async def _check_nodes(self) -> set[str]:
        """Forget clients of dead nodes; close local clients whose owner died; the nodes
        newly seen dead."""
        members = {str(n) for n in await self.redis.smembers(NODES_KEY)}
        nodes = members | {n for n, _ in self.remote} | \
            {owner for _, owner in self.attached.values()}
        nodes.discard(self.node)
        names = sorted(nodes)
        if not names:
            return set()
        alive = await self._liveness(names)
        dead = {n for n, up in zip(names, alive, strict=True) if not up}
        self.dead -= {n for n, up in zip(names, alive, strict=True) if up}
        if not dead:
            return set()
        newly = dead - self.dead
        if newly:
            log.info("nodes %s are gone", ", ".join(sorted(newly)))
        self.dead |= dead
        await self.redis.srem(NODES_KEY, *dead)
        for (node, conn_id), outbox in list(self.remote.items()):
            if node in dead:
                self.remote.pop((node, conn_id), None)
                self.hub.disconnect(outbox)
        for conn_id, (conn, owner) in list(self.attached.items()):
            if owner in dead:
                log.debug("owner node %s of table %s is gone: closing its client", owner,
                          conn.table_id)
                self.attached.pop(conn_id, None)
                _drop(conn)
        return newly

    # -- messages -----------------------------------------------------------------
    def post(self, node: str, message: dict[str, Any]) -> None:
        """Queue a message to ``node``; messages to a node keep their order."""
        self._outgoing.setdefault(node, []).append(message)
        self._wake.set()

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._outgoing = self._outgoing, {}
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for node, messages in batch.items():
                        pipe.publish(channel(node), json.dumps(messages))
                    await pipe.execute()
            except Exception:
                log.warning("cluster publish failed", exc_info=True)

    async def _listen(self) -> None:
        while True:
            try:
                async for raw in self._pubsub.listen():
                    if raw.get("type") == "message":
                        for message in json.loads(raw["data"]):
                            self._receive(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster listener failed; listening again", exc_info=True)
                await asyncio.sleep(0.2)

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message["k"]
        if kind == "out":
            found = self.attached.get(message["c"])
            if found is not None:
                found[0].send(message["t"])
        elif kind == "close":
            found = self.attached.pop(message["c"], None)
            if found is not None:
                _drop(found[0])
        elif kind == "rep":
            future = self._calls.pop(message["id"], None)
            if future is not None and not future.done():
                if "err" in message:
                    future.set_exception(ServerError(*message["err"]))
                else:
                    future.set_result(message.get("ok"))
        elif kind == "bye":
            key = (message["from"], message["c"])
            outbox = self.remote.pop(key, None)
            if outbox is None:
                self._gone.add(key)
            else:
                self.hub.disconnect(outbox)
        elif kind == "req":
            self._spawn(self._serve(message))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def node_alive(self, node: str) -> bool:
        """Whether ``node`` is alive (checked at most every 0.2 s; see :meth:`_liveness`)."""
        if node == self.node:
            return True
        now = asyncio.get_running_loop().time()
        checked = self._alive.get(node)
        if checked is None or now - checked[0] > 0.2:
            checked = self._alive[node] = (now, (await self._liveness([node]))[0])
        return checked[1]

    async def _liveness(self, nodes: list[str]) -> list[bool]:
        """Whether each node is alive: its key is there and someone listens on its channel
        (or has been silent less than :data:`SILENT_SECONDS` since first seen silent)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.exists(node_key(node))
            pipe.pubsub_numsub(*(channel(n) for n in nodes))
            found = await pipe.execute()
        listeners = dict(found[-1])
        now = asyncio.get_running_loop().time()
        alive = []
        for node, known in zip(nodes, found, strict=False):
            if listeners.get(channel(node), 0):
                self._silent.pop(node, None)
            else:  # silent twice, SILENT_SECONDS to 2 s apart
                since = self._silent.get(node)
                if since is None or now - since > 2.0:
                    self._silent[node] = since = now
                known = known and now - since < SILENT_SECONDS
            alive.append(bool(known))
        return alive

    async def call(self, node: str, op: str, table_id: str, **args: Any) -> Any:
        """Ask the owner ``node`` to do ``op`` on a table; its reply, or its error."""
        call_id = f"{self.node}:{next(self._ids)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        self.post(node, {"k": "req", "id": call_id, "from": self.node, "op": op,
                         "table": table_id, "args": args})
        try:
            for _ in range(40):  # 10 s at most, and less once the owner is gone
                try:
                    return await asyncio.wait_for(asyncio.shield(future), 0.25)
                except TimeoutError:
                    if not await self.node_alive(node):
                        raise OwnerGone("unavailable", "the table's server is gone: "
                                        "try again") from None
            raise ServerError("unavailable", "the table's server did not answer")
        finally:
            self._calls.pop(call_id, None)
            future.cancel()

    async def _serve(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "rep", "id": message["id"]}
        try:
            table = await self.hub.served_here(message["table"])
            if table is None:
                raise ServerError("unavailable", "the table moved to another server: "
                                  "reconnect")
            handler = self._handlers()[message["op"]]
            reply["ok"] = await handler(table, message["from"], **message["args"])
        except ServerError as error:
            reply["err"] = [error.code, error.message]
        except Exception:
            log.exception("forwarded %s failed", message["op"])
            reply["err"] = ["internal", "internal error"]
        self.post(message["from"], reply)

    def _handlers(self) -> dict[str, Callable[..., Awaitable[Any]]]:
        hub = self.hub

        async def table_out(table: Any, _: str) -> Any:
            return hub.table_out(table).model_dump(mode="json")

        async def move(table: Any, _: str, seat: int, text: str, version: int) -> Any:
            return await hub.move(table, seat, text, version)

        async def take_back(table: Any, _: str, seat: int) -> None:
            await hub.take_back(table, seat)

        async def leave(table: Any, _: str, seat: int) -> None:
            await hub.leave(table, seat)

        async def rematch(table: Any, _: str, seat: int) -> None:
            await hub.vote_rematch(table, seat)

        async def resign(table: Any, _: str, seat: int) -> None:
            await hub.resign(table, seat)

        async def join(table: Any, _: str, name: str, player: str | None = None) -> Any:
            return (await hub.join(table.id, name, player)).model_dump(mode="json")

        async def bind(table: Any, _: str, seat: int, player: str) -> None:
            await hub.bind_player(table, seat, player)

        async def hint(table: Any, _: str, seat: int) -> Any:
            return (await hub.hint(table, seat)).model_dump(mode="json")

        async def sync(table: Any, _: str, seat: int) -> Any:
            return hub.sync_text(table, seat)

        async def connect(table: Any, node: str, conn: str, seat: int,
                          since: int | None) -> None:
            outbox = RemoteOutbox(self, node, conn, table.id, seat)
            self.remote[node, conn] = outbox
            await hub.connect(outbox, table, since)
            if (node, conn) in self._gone:  # it left while it was being connected
                self._gone.discard((node, conn))
                self.remote.pop((node, conn), None)
                hub.disconnect(outbox)

        return {"table": table_out, "move": move, "take_back": take_back, "leave": leave,
                "rematch": rematch, "resign": resign, "join": join, "hint": hint, "sync": sync,
                "connect": connect, "bind": bind}

    # -- local clients of remote tables -----------------------------------------------
    async def attach(self, conn: Outbox, owner: str, since: int | None) -> None:
        """Connect a local client to a table owned by ``owner``."""
        conn_id = f"{next(self._ids)}"
        conn.attached_as = conn_id  # type: ignore[attr-defined]
        self.attached[conn_id] = (conn, owner)
        try:
            await self.call(owner, "connect", conn.table_id, conn=conn_id,
                            seat=conn.recipient, since=since)
        except ServerError:
            self.attached.pop(conn_id, None)
            raise

    def detach(self, conn: Outbox) -> bool:
        """Forget a local client of a remote table (telling its owner); False if it was
        not one."""
        conn_id = getattr(conn, "attached_as", None)
        found = self.attached.pop(conn_id, None) if conn_id is not None else None
        if found is None:
            return False
        self.post(found[1], {"k": "bye", "from": self.node, "c": conn_id})
        return True


def _keys(tables: dict[str, Any]) -> list[str]:
    """The keys of a dict another thread changes (retried if it changed meanwhile)."""
    while True:
        try:
            return list(tables)
        except RuntimeError:
            continue


def _drop(conn: Outbox) -> None:
    """Close a local client so that it reconnects."""
    drop = getattr(conn, "drop", None)
    if drop is not None:
        drop()
