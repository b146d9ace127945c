"""The `jobdedup` command line: one Typer app, one module per command group."""

from __future__ import annotations

import sys

import typer

from service.errors import UserError

app = typer.Typer(
    name="jobdedup",
    help="Near-duplicate detection for job postings, built around Apache Solr.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _root() -> None:
    """Near-duplicate detection for job postings, built around Apache Solr."""


def _register() -> None:
    """Attach every command module; each exposes `register(app)`."""
    from service import cli_dedup, cli_eval, cli_generate, cli_index, cli_recompute, cli_serve, cli_sig

    for module in (cli_sig, cli_eval, cli_generate, cli_dedup, cli_index, cli_serve, cli_recompute):
        module.register(app)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: user errors become one line on stderr and exit code 2."""
    _register()
    try:
        app(args=argv, standalone_mode=False)
    except UserError as exc:
        print(f"jobdedup: error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        print("jobdedup: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # e.g. a full disk while writing: one line (the output file is left as it was)
        print(f"jobdedup: error: {exc.filename + ': ' if exc.filename else ''}{exc.strerror or exc}", file=sys.stderr)
        sys.exit(1)
    except SystemExit:
        raise
    except Exception as exc:  # click usage errors and friends
        if isinstance(exc, _click_types("ClickException")):
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        if isinstance(exc, _click_types("Abort")):
            sys.exit(1)
        raise


def _click_types(name: str) -> tuple[type[BaseException], ...]:
    """Click's exception class `name` from click itself and from Typer's vendored copy (Typer >= 0.20)."""
    import importlib

    found: list[type[BaseException]] = []
    for module in ("click.exceptions", "typer._click.exceptions"):
        try:
            found.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(found)

if __name__ == "__main__":
    main()
