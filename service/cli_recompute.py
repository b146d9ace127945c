"""`jobdedup recompute`: recompute signatures and groups over a live collection, resumably."""

from __future__ import annotations

import os

import typer

from service import cli_options
from service.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command("recompute")
    def recompute(
        solr: str = typer.Option(..., "--solr", help="Collection URL, e.g. http://127.0.0.1:8983/solr/postings."),
        resume: bool = typer.Option(False, "--resume", help="Continue a killed run from its checkpoint."),
        checkpoint: str | None = typer.Option(
            None, "--checkpoint", help="Checkpoint directory (features per page + progress), removed when the run "
            "completes; default: recompute.ckpt beside the collection's model in --state-dir."),
        rows: int = typer.Option(500, "--rows", help="Postings per page / per update batch."),
        fast: bool = typer.Option(False, "--fast", help="Regroup with dedup's --fast placeholder rule instead "
                                  "of the verifier (same groups as `jobdedup dedup --fast`)."),
        state_dir: str | None = typer.Option(
            None, "--state-dir", help="Where the refitted boilerplate model is saved for serve/index; default "
            "env JOBDEDUP_STATE_DIR or ./jobdedup-state."),
        workers: int = typer.Option(
            max(1, min(os.cpu_count() or 1, 4)), "--workers", "-j", help="Processes for text extraction."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar, no summary."),
        solr_user: str | None = cli_options.SOLR_USER,
        stop_after_pages: int | None = typer.Option(
            None, "--stop-after-pages", hidden=True, help="Testing: die abruptly after N scanned pages."
        ),
    ) -> None:
        """Stream the collection (cursorMark), recompute profile_sig / sketches / bands with the current
        sig_version and regroup every posting with the same decision as `jobdedup dedup` (so both give the
        same groups); writes atomic updates in batches and checkpoints after each, so a killed run continues
        with --resume (the checkpoint belongs to its collection and is removed after a complete run). Also
        repairs groups split by racing ingests. Ends by refitting the collection's boilerplate model from
        every posting and saving it in --state-dir."""
        from service.recompute import run_cli
        from service.state import default_state_dir

        if not 1 <= rows <= 5000:
            raise UserError("--rows must be in 1..5000")
        if workers < 1:
            raise UserError("--workers must be >= 1")
        run_cli(cli_options.solr_url(solr, solr_user), checkpoint, resume, rows, quiet, stop_after_pages, fast=fast,
                state_dir=state_dir or default_state_dir(), workers=workers)
