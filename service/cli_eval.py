"""`jobdedup eval`: pairwise quality of the duplicate decision and of the baselines on labeled pairs."""

from __future__ import annotations

from typing import Annotated

import orjson
import typer

from service.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_cmd(
        data: Annotated[
            list[str] | None, typer.Option("--data", help="Postings (JSON Lines, CSV/TSV); repeat for several files.")
        ] = None,
        labels: Annotated[
            list[str] | None,
            typer.Option("--labels", help="Labeled pairs (JSON Lines: a, b, label); repeat for several files."),
        ] = None,
        generated: int = typer.Option(
            0, "--generated", help="Also score N generated postings per language (service.synth, held-out seed)."
        ),
        cv: int = typer.Option(
            0, "--cv", help="Also report grouped K-fold CV on the training side of the labels of the shipped model's own "
            "recipe (its learner, weights, vetoes and features; the threshold chosen inside; folds by employer group "
            "and pair-graph component)."
        ),
        curve: bool = typer.Option(
            False, "--curve", help="Also report the learning curve: the recipe trained on 25/50/100 %% of the "
            "training groups, scored on the locked split."
        ),
        no_generated: bool = typer.Option(
            False, "--no-generated", help="With --cv: train folds on the labeled pairs only, without generated pairs."
        ),
        no_boilerplate: bool = typer.Option(
            False, "--no-boilerplate", help="Ablation: score without the corpus-learned boilerplate model."
        ),
        no_baselines: bool = typer.Option(False, "--no-baselines", help="Skip TextProfileSignature/MinHash/SimHash."),
        as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables."),
    ) -> None:
        """Pairwise precision / recall / F1, PARTIAL pairs merged and per-label rates of the verifier,
        next to stock TextProfileSignature, MinHash Jaccard and SimHash-64 on the same pairs.
        Labels with `"split": "locked"` are reported on those pairs only (thresholds of the baselines chosen on
        the training side); without a locked split the pairs are marked as tuned-on.
        Duplicate = FULL, SEMANTIC or TEMPORAL; PARTIAL and NON must stay apart."""
        from service.eval import evaluate, format_reports

        if not labels and not generated:
            raise UserError("give --data and --labels, or --generated N")
        if labels and not data:
            raise UserError("--labels needs the postings they refer to: add --data FILE")
        if generated < 0:
            raise UserError("--generated must be >= 0")
        if cv == 1 or cv < 0:
            raise UserError("--cv needs at least 2 folds (or 0 to skip)")
        reports = evaluate(data or [], labels or [], cv=cv, baselines=not no_baselines, generated=not no_generated,
                           generated_eval=generated, boilerplate=not no_boilerplate, curve=curve)
        if as_json:
            doc = [
                {"labels": r.name, "counts": r.counts, "results": [m.as_dict() for m in r.results],
                 "skipped": r.skipped, "notes": r.notes}
                for r in reports
            ]
            typer.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        else:
            typer.echo(format_reports(reports))
