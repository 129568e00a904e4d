"""A desk in a child process, for the fault test and the load benchmark: started with
``python -m forcecheck serve`` as an organiser would, on a free loopback port, and killed or
stopped by its process id (never by name)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DeskProcess:
    def __init__(self, db_url: str, admin_token: str, port: int | None = None, log_path: str | None = None):
        self.db_url = db_url
        self.admin_token = admin_token
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or os.devnull
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> "DeskProcess":
        env = dict(os.environ, FORCECHECK_ADMIN_TOKEN=self.admin_token)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "forcecheck", "serve", "--db", self.db_url, "--host", "127.0.0.1", "--port", str(self.port)],
            env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the desk exited with {self.process.returncode} (log: {self.log_path})")
            try:
                with urllib.request.urlopen(self.url + "/api/formats", timeout=1) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the desk did not answer within {timeout:.0f} s (log: {self.log_path})")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the machine or the process dies."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> "DeskProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
