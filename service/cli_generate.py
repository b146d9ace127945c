"""`jobdedup generate`: synthetic postings with realistic reposts (JSON Lines), for tests and benchmarks."""

from __future__ import annotations

import typer

from service import io
from service.errors import UserError
from service.files import cli_output


def register(app: typer.Typer) -> None:
    @app.command("generate")
    def generate(
        n: int = typer.Option(10000, "-n", "--count", help="Number of postings (lines) to write."),
        output: str = typer.Option("-", "-o", "--output", help="Output JSON Lines file ('-' = stdout)."),
        dup_rate: float = typer.Option(0.6, "--dup-rate", help="Share of postings that re-post an earlier job."),
        lang: str = typer.Option("en", "--lang", help="en, zh, ja or mixed."),
        seed: int = typer.Option(0, "--seed", help="Random seed: the same seed gives the same file."),
        resight_rate: float = typer.Option(
            0.05, "--resight-rate", help="Share of lines that re-sight an earlier posting (crawl log, same id)."
        ),
        agency_rate: float = typer.Option(
            0.0, "--agency-rate", help="Share of reposts that are HTML recruitment-agency copies (agency as company)."
        ),
    ) -> None:
        """Write N synthetic job postings with reposts and crawl-log re-sightings.

        Each posting carries `synthetic_job`, the ground-truth job key.
        """
        from service.synth import Generator

        if n < 0:
            raise UserError("-n must be >= 0")
        if not 0.0 <= dup_rate < 1.0:
            raise UserError("--dup-rate must be in [0, 1)")
        if not 0.0 <= resight_rate < 1.0:
            raise UserError("--resight-rate must be in [0, 1)")
        if not 0.0 <= agency_rate <= 1.0:
            raise UserError("--agency-rate must be in [0, 1]")
        if lang not in ("en", "zh", "ja", "mixed"):
            raise UserError(f"--lang must be en, zh, ja or mixed, got {lang!r}")
        gen = Generator(lang=lang, dup_rate=dup_rate, seed=seed, resight_rate=resight_rate, agency_rate=agency_rate)
        with cli_output(output) as out:
            io.write_jsonl(out, gen.postings(n), chunk=1000)
