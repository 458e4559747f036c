"""A `rummykit serve` killed outright (SIGKILL) leaves no process behind: its bot worker,
its replay worker and their forkserver end within seconds (a real server, real signals)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from rummykit.server.benchkit import descendants, free_port

RECORD = Path(__file__).parent / "data" / "golden" / "basic_2p.rummy.json"
BOTS_ONLY = {"rules": "basic", "seats": [{"kind": "bot", "level": "random"},
                                         {"kind": "bot", "level": "random"}]}


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def describe(pids: list[int]) -> list[str]:
    """Each process's id, parent and command line."""
    found = []
    for pid in pids:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            parent = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        found.append(f"{pid} (parent {parent}): {argv.decode(errors='replace')[:160]}")
    return found


def test_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "RUMMYKIT_BOT_PROCESSES": "1", "RUMMYKIT_BOT_DELAY": "0.05",
           "RUMMYKIT_UPLOAD_WAIT_SECONDS": "30"}
    log = tmp_path / "server.log"
    with log.open("ab") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "rummykit.cli.main", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'rk.db'}"],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        table = httpx.post(f"{base}/api/tables", json=BOTS_ONLY, timeout=10)
        assert table.status_code == 201, table.text
        uploaded = httpx.post(f"{base}/api/replays", content=RECORD.read_bytes(), timeout=30)
        assert uploaded.status_code == 201, uploaded.text  # checked in the replay worker
        table_id = table.json()["table"]["id"]
        while httpx.get(f"{base}/api/tables/{table_id}", timeout=5).json()["version"] < 3:
            assert time.monotonic() < deadline, "the bots do not play"
            time.sleep(0.1)
        workers = descendants(server.pid)
        # the bot worker, the forkserver and the replay worker it forked (at least)
        assert len(workers) >= 3, workers
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        gone_by = time.monotonic() + 5
        while any(running(p) for p in workers) and time.monotonic() < gone_by:
            time.sleep(0.05)
        left = [p for p in workers if running(p)]
        assert not left, f"still running after the server's SIGKILL: {describe(left)}"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        for pid in workers:  # after a failure, none left behind: SIGKILL, as a forked
            with contextlib.suppress(OSError):  # worker keeps uvicorn's SIGTERM handler
                argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
                if running(pid) and argv0.decode(errors="replace") == sys.executable:
                    os.kill(pid, signal.SIGKILL)
