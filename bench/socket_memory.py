# ruff: noqa: S603, S607 - the benchmark starts the servers it compares
"""Benchmark: what one open websocket costs the server process that holds it, before the app does anything.

Starts an ASGI server on a minimal app that only echoes websocket frames, opens ``--sockets`` websockets to it (each
sends one 2 KB frame and reads the echo, as a tab's first event does) and reports the server's resident memory grown,
per socket. Servers: Granian (what ``scripts/prod.sh`` runs the instances with) and Uvicorn with wsproto, for scale.
What this shows is the floor under ``league_night.py``'s memory per tab: the app's own per-tab cost comes on top.

    .venv/bin/python bench/socket_memory.py --sockets 1000

Run it alone on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

PORT = 18700
ECHO_APP = '''
async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            await send({"type": "websocket.send", "text": message.get("text") or ""})
'''
SERVERS = {
    "granian": ["granian", "--interface", "asgi", "--host", "127.0.0.1", "--port", str(PORT), "echo:app"],
    "uvicorn (wsproto)": ["uvicorn", "--host", "127.0.0.1", "--port", str(PORT), "--ws", "wsproto", "echo:app"],
}


def _rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its children, in KB."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout.split()
    total = 0
    for p in [pid, *map(int, children)]:
        with open(f"/proc/{p}/status") as f:
            total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS")), 0)
    return total


async def _measure(pid: int, n: int) -> float:
    url = f"http://127.0.0.1:{PORT}/ws"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        warm = []
        for _ in range(20):  # the server's first connections (its lazily made parts), not counted
            ws = await session.ws_connect(url)
            await ws.send_str("x" * 2000)
            await ws.receive()
            warm.append(ws)
        await asyncio.sleep(1)
        before = _rss_kb(pid)
        sockets = []
        for _ in range(n):
            ws = await session.ws_connect(url)
            await ws.send_str("x" * 2000)
            await ws.receive()
            sockets.append(ws)
        await asyncio.sleep(2)
        grown = _rss_kb(pid) - before
        for ws in warm + sockets:
            await ws.close()
    return grown / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    run_dir = Path(tempfile.mkdtemp(prefix="volley-sockets-"))
    (run_dir / "echo.py").write_text(ECHO_APP)
    bin_dir = Path(sys.executable).parent
    rows = []
    for name, command in SERVERS.items():
        proc = subprocess.Popen([str(bin_dir / command[0]), *command[1:]], cwd=run_dir, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        try:
            time.sleep(3)
            per_socket = asyncio.run(_measure(proc.pid, args.sockets))
        finally:
            os.killpg(proc.pid, 15)
            proc.wait(30)
        rows.append((name, per_socket, os.getloadavg()[0]))
        time.sleep(1)
    print(f"\n{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{args.sockets} websockets, each one 2 KB frame and its echo.\n")  # fmt: skip
    print("| server | memory per open websocket | load average |\n|---|---|---|")
    for name, per_socket, load in rows:
        print(f"| {name} | {per_socket:.0f} KB | {load:.1f} |")


if __name__ == "__main__":
    main()
