"""DNS rebinding against the simulator page: a real ``reedboard run --sim`` on loopback, and on
every interface with a token, asked by a page whose name was made to resolve to this machine
(its Host header names it; browsers send the real name). Every route (the page, its script, the
session file, both websockets) × attacker Hosts (names, a loopback-looking name, empty) × with
and without an Origin. Figures: attacker requests answered (must be 0), loopback requests
refused (must be 0).

    .venv/bin/python -m bench.robust.rebinding [--quick]
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import time

from bench.robust.common import report
from bench.robust.power_cuts import free_port

REEDBOARD = [sys.executable, "-m", "firmware_host.cli.main", "run", "--sim"]
ROUTES = ["/", "/watch", "/static/app.js", "/replay.jsonl", "/ws", "/ws/watch"]
EVIL = [
    "evil.test",
    "evil.test.",
    "127.0.0.1.evil.test",
    "localhost.evil.test",
    "rebind.me",
    "xn--80ak6aa92e.com",
    "",
    "[::1].evil.test",
]
UPGRADE = {
    "Upgrade": "websocket",
    "Connection": "Upgrade",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


def status(port: int, path: str, host: str, origin: str | None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Host": host, **(UPGRADE if path.startswith("/ws") else {})}
    if origin:
        headers["Origin"] = origin
    try:
        conn.request("GET", path, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


def attack(bind: str, token: str | None) -> dict:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        config = os.path.join(folder, "config.toml")
        with open(config, "w") as fp:
            fp.write(f'storage = "{folder}/games.db"\n[web]\nport = {port}\n')
        env = {**os.environ, **({"REEDBOARD_TOKEN": token} if token else {})}
        proc = subprocess.Popen(
            [*REEDBOARD, "--config", config, "--host", bind],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            for line in proc.stderr:
                if "is at http" in line:
                    break
            query = f"?token={token}" if token else ""
            tried = answered = good = refused_good = 0
            for path in ROUTES:
                for name in EVIL:
                    for with_port in (True, False):
                        host = f"{name}:{port}" if with_port and name else name
                        for origin in (None, f"http://{host}"):
                            tried += 1
                            answered += status(port, path + query, host, origin) < 400
                for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
                    good += 1
                    refused_good += status(port, path + query, host, f"http://{host}") >= 400
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(5)
    return {"tried": tried, "answered": answered, "loopback": good, "refused": refused_good}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.parse_args()
    began = time.perf_counter()
    local = attack("127.0.0.1", None)
    everywhere = attack("0.0.0.0", "s3cret-token")
    figures = {
        "attacker_requests": local["tried"] + everywhere["tried"],
        "attacker_answered": local["answered"] + everywhere["answered"],
        "loopback_requests": local["loopback"] + everywhere["loopback"],
        "loopback_refused": local["refused"] + everywhere["refused"],
        "seconds": round(time.perf_counter() - began, 1),
    }
    report("DNS rebinding (Host and Origin of a rebound name)", list(figures.items()), figures)


if __name__ == "__main__":
    main()
