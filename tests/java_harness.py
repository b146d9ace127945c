"""Build and drive solr-config/harness: Solr's real TextProfileSignature behind stdin/stdout.

`build_harness()` runs Maven once (offline first when the jar and classpath are already there) and
returns the `java -cp` classpath; `JavaSigner` keeps ONE Java process and sends requests in batches.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HARNESS = REPO / "solr-config" / "harness"
MAIN_CLASS = "io.jobdedup.harness.TextProfileHarness"


def require_java_toolchain() -> None:
    """Skip loudly when Java 17 / Maven are missing; fail instead in CI (CI=true)."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        msg = f"Java parity tests need {' and '.join(missing)} on PATH (Java 17 + Maven)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " -- required in CI")
        pytest.skip("SKIPPED LOUDLY: " + msg)


def _newest_source_mtime() -> float:
    paths = [HARNESS / "pom.xml", HARNESS.parent / "pom.xml", *(HARNESS / "src").rglob("*")]
    return max(p.stat().st_mtime for p in paths if p.is_file())


def build_harness() -> str:
    """Compile the harness (if needed) and return its runtime classpath for `java -cp`."""
    cp_file = HARNESS / "target" / "classpath.txt"
    classes = HARNESS / "target" / "classes"
    main_class = classes / (MAIN_CLASS.replace(".", "/") + ".class")
    fresh = (
        cp_file.is_file()
        and main_class.is_file()
        and max(cp_file.stat().st_mtime, main_class.stat().st_mtime) >= _newest_source_mtime()
    )
    if not fresh:
        base = ["mvn", "-B", "-q", "-f", str(HARNESS / "pom.xml"), "-DskipTests", "package"]
        res = subprocess.run([*base[:3], "-o", *base[3:]], capture_output=True, text=True, timeout=900)
        if res.returncode != 0:  # offline failed (cold ~/.m2): let Maven download from Central
            res = subprocess.run(base, capture_output=True, text=True, timeout=1800)
        if res.returncode != 0:
            raise RuntimeError(f"building the Solr harness failed:\n{res.stdout[-4000:]}\n{res.stderr[-4000:]}")
    return f"{classes}{os.pathsep}{cp_file.read_text().strip()}"


class JavaSigner:
    """One long-lived harness process (mode 'text' or 'fields'); `sign()` answers a batch of requests."""

    def __init__(self, classpath: str, mode: str) -> None:
        self.proc = subprocess.Popen(
            ["java", "-Xss8m", "-cp", classpath, MAIN_CLASS, mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def sign(self, requests: Sequence[dict], batch: int = 4000) -> list[str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        out: list[str] = []
        for start in range(0, len(requests), batch):
            chunk = requests[start : start + batch]
            payload = "".join(json.dumps(r, ensure_ascii=True) + "\n" for r in chunk) + "\n"
            self.proc.stdin.write(payload.encode("ascii"))
            self.proc.stdin.flush()
            for _ in chunk:
                line = self.proc.stdout.readline()
                if not line:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise RuntimeError(f"harness died: {err[-2000:]}")
                out.append(line.decode("utf-8").rstrip("\n"))
        return out

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def generate_tables(classpath: str, out: Path) -> dict:
    """Run the harness' table generator on this JVM; returns its metadata (java.version, vendor)."""
    res = subprocess.run(
        ["java", "-cp", classpath, MAIN_CLASS, "tables", str(out)], capture_output=True, text=True, timeout=300
    )
    if res.returncode != 0:
        raise RuntimeError(res.stderr)
    return json.loads(res.stdout)
