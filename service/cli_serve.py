"""`jobdedup serve`: the HTTP service (FastAPI + uvicorn) in front of a Solr collection."""

from __future__ import annotations

import ipaddress

import typer

from service import cli_options
from service.errors import UserError

MIN_TOKEN_CHARS = 16


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps the service on this machine (localhost, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # another host name: may resolve to any interface


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        solr: str = typer.Option(..., "--solr", help="Collection URL, e.g. http://127.0.0.1:8983/solr/postings."),
        host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on."),
        port: int = typer.Option(8000, "--port", help="TCP port."),
        commit_within: int = typer.Option(1000, "--commit-within", help="Solr commitWithin for writes, in ms."),
        max_text_chars: int | None = typer.Option(
            None, "--max-text-chars", help="Reject postings with a longer text field (default 200000 or "
            "env JOBDEDUP_MAX_TEXT_CHARS)."
        ),
        max_body_bytes: int | None = typer.Option(
            None, "--max-body-bytes", help="Answer 413 to a larger request body (default 33554432 = 32 MiB or "
            "env JOBDEDUP_MAX_BODY_BYTES)."
        ),
        cpu_workers: int | None = typer.Option(
            None, "--cpu-workers", help="Worker processes for features, extraction and signatures (default "
            "min(2, cores) or env JOBDEDUP_CPU_WORKERS; 0 = in the service process, no budget)."
        ),
        cpu_budget: float | None = typer.Option(
            None, "--cpu-budget", help="Seconds of worker time one request may use before it is answered 422 "
            "(default 60 or env JOBDEDUP_CPU_BUDGET_S)."
        ),
        log_level: str = typer.Option("info", "--log-level", help="uvicorn log level."),
        token: str | None = typer.Option(
            None, "--token", envvar="JOBDEDUP_TOKEN", show_default=False,
            help="Require `Authorization: Bearer <token>` on every endpoint but /health and the docs (at least "
            "16 characters, e.g. `openssl rand -hex 32`; prefer env JOBDEDUP_TOKEN to the command line). "
            "Required when --host is not a loopback address."),
        solr_user: str | None = cli_options.SOLR_USER,
        state_dir: str | None = typer.Option(
            None, "--state-dir", help="Directory of per-collection state (the boilerplate model, saved every "
            "30 s and at shutdown); default env JOBDEDUP_STATE_DIR or ./jobdedup-state."),
    ) -> None:
        """Serve the API (OpenAPI at /docs). Run ONE process per collection: group assignment is serialized
        in-process; several instances may split a group until `jobdedup recompute` merges it."""
        import uvicorn

        from service.app import create_app
        from service.state import default_state_dir

        if not 0 < port < 65536:
            raise UserError("--port must be in 1..65535")
        if commit_within < 0:
            raise UserError("--commit-within must be >= 0")
        if token is not None and len(token) < MIN_TOKEN_CHARS:
            raise UserError(f"--token / JOBDEDUP_TOKEN must have at least {MIN_TOKEN_CHARS} characters")
        if token is None and not is_loopback(host):
            raise UserError(f"--host {host} listens beyond loopback: give a token (--token or env JOBDEDUP_TOKEN) "
                            "that clients send as 'Authorization: Bearer <token>'")
        if max_text_chars is not None and max_text_chars < 1:
            raise UserError("--max-text-chars must be >= 1")
        if max_body_bytes is not None and max_body_bytes < 1:
            raise UserError("--max-body-bytes must be >= 1")
        if cpu_workers is not None and cpu_workers < 0:
            raise UserError("--cpu-workers must be >= 0")
        if cpu_budget is not None and cpu_budget <= 0:
            raise UserError("--cpu-budget must be > 0")
        application = create_app(cli_options.solr_url(solr, solr_user), commit_within_ms=commit_within,
                                 max_text_chars=max_text_chars, state_dir=state_dir or default_state_dir(),
                                 token=token, max_body_bytes=max_body_bytes, cpu_workers=cpu_workers,
                                 cpu_budget_s=cpu_budget)
        uvicorn.run(application, host=host, port=port, log_level=log_level, workers=1)
