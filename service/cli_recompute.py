"""`jobdedup recompute`: recompute signatures and groups over a live collection, resumably."""

from __future__ import annotations

import typer

from service.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command("recompute")
    def recompute(
        solr: str = typer.Option(..., "--solr", help="Collection URL, e.g. http://127.0.0.1:8983/solr/postings."),
        resume: bool = typer.Option(False, "--resume", help="Continue a killed run from its checkpoint."),
        checkpoint: str = typer.Option(
            "jobdedup-recompute.ckpt", "--checkpoint", help="Checkpoint directory (features per page + progress)."
        ),
        rows: int = typer.Option(500, "--rows", help="Postings per page / per update batch."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar, no summary."),
        stop_after_pages: int | None = typer.Option(
            None, "--stop-after-pages", hidden=True, help="Testing: die abruptly after N scanned pages."
        ),
    ) -> None:
        """Stream the collection (cursorMark), recompute profile_sig / sketches / bands with the current
        sig_version and regroup every posting; writes atomic updates in batches and checkpoints after each,
        so a killed run continues with --resume. Also repairs groups split by racing ingests."""
        from service.recompute import run_cli

        if not 1 <= rows <= 5000:
            raise UserError("--rows must be in 1..5000")
        run_cli(solr, checkpoint, resume, rows, quiet, stop_after_pages)
