"""`jobdedup serve` as a real process for tests (the worktree's code, `python -m service.cli serve`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests
from solr_fixture import free_port

REPO = Path(__file__).resolve().parents[1]


class Service:
    """A `serve` subprocess on a free port of 127.0.0.1; `args` and `env` are added to the defaults."""

    def __init__(self, solr: str, state_dir: Path, args: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 token: str | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--solr", solr, "--port", str(self.port),
             "--state-dir", str(state_dir), "--log-level", "warning", *args],
            cwd=REPO, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited {self.proc.returncode}: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                requests.get(f"{self.url}/openapi.json", timeout=1)
                return
            except requests.ConnectionError:
                time.sleep(0.2)
        self.stop(signal.SIGKILL)
        raise RuntimeError("serve did not start within 60 s")

    def post(self, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """POST a batch to /v1/postings (with the token, if any); its results."""
        r = requests.post(f"{self.url}/v1/postings", json={"postings": batch}, headers=self.headers, timeout=120)
        assert r.status_code == 200, r.text[:500]
        return r.json()["results"]

    def learned(self) -> float:
        """The boilerplate model's posting count, from /metrics."""
        for line in requests.get(f"{self.url}/metrics", headers=self.headers, timeout=10).text.splitlines():
            if line.startswith("jobdedup_boilerplate_postings "):
                return float(line.split()[1])
        raise AssertionError("jobdedup_boilerplate_postings not in /metrics")

    def stop(self, sig: int = signal.SIGTERM) -> str:
        """Send `sig` and wait for the process; its stderr."""
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=60)
        return err.decode()
