"""The service's settings from the environment, read in one place, once (`settings()`).

JOBDEDUP_MAX_TEXT_CHARS (largest accepted text field, 200,000 characters), JOBDEDUP_STATE_DIR (per-collection
state such as the boilerplate model, default ./jobdedup-state), JOBDEDUP_STATE_SAVE_INTERVAL (seconds between
saves of that state by `serve`, 30), JOBDEDUP_WORKERS (worker processes of dedup / recompute, default: the
cores, at most 8), JOBDEDUP_CPU_WORKERS (the service's CPU worker processes, min(2, cores); 0 = in-process),
JOBDEDUP_CPU_BUDGET_S (seconds of CPU work one request may take, 60), JOBDEDUP_MAX_BODY_BYTES (largest
request body `serve` accepts, 32 MiB).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from service.errors import UserError

DEFAULT_STATE_DIR = "jobdedup-state"


@dataclass(frozen=True)
class Settings:
    """Knobs taken from the environment (see the module docstring)."""

    max_text_chars: int = 200_000
    state_dir: str = DEFAULT_STATE_DIR
    state_save_interval_s: float = 30.0
    workers: int = max(1, min(os.cpu_count() or 1, 8))
    cpu_workers: int = min(2, os.cpu_count() or 1)
    cpu_budget_s: float = 60.0
    max_body_bytes: int = 32 * 1024 * 1024

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Settings from environment variables; a malformed number is a UserError naming the variable."""

        def num(name: str, kind: type, default: float, minimum: float = 0.0, strict: bool = True) -> float:
            raw = env.get(name)
            if raw is None or raw.strip() == "":
                return default
            try:
                value = kind(raw)
            except ValueError:
                raise UserError(f"{name}={raw!r}: not a number") from None
            if value < minimum or (strict and value == minimum):
                raise UserError(f"{name}={raw!r}: must be {'>' if strict else '>='} {minimum:g}")
            return value

        d = cls()
        return cls(max_text_chars=int(num("JOBDEDUP_MAX_TEXT_CHARS", int, d.max_text_chars)),
                   state_dir=env.get("JOBDEDUP_STATE_DIR") or d.state_dir,
                   state_save_interval_s=float(num("JOBDEDUP_STATE_SAVE_INTERVAL", float, d.state_save_interval_s)),
                   workers=int(num("JOBDEDUP_WORKERS", int, d.workers)),
                   cpu_workers=int(num("JOBDEDUP_CPU_WORKERS", int, d.cpu_workers, strict=False)),
                   cpu_budget_s=float(num("JOBDEDUP_CPU_BUDGET_S", float, d.cpu_budget_s)),
                   max_body_bytes=int(num("JOBDEDUP_MAX_BODY_BYTES", int, d.max_body_bytes)))


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings, read from the environment on first use."""
    return Settings.from_env(os.environ)
