"""The `jobdedup` command line: one Typer app, one module per command group."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import typer
import typer.main

from service.errors import UserError

app = typer.Typer(
    name="jobdedup",
    help="Near-duplicate detection for job postings, built around Apache Solr.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


#: The Solr release the configset and plugin are built and tested against (solr.version in
#: solr-config/pom.xml and the compose image; tests/test_cli.py checks they agree).
SOLR_VERSION = "9.10.1"


def version_text() -> str:
    """What `jobdedup --version` prints: the package, the signature version and the pinned Solr."""
    from importlib.metadata import PackageNotFoundError, version

    from signatures import SIG_VERSION

    try:
        pkg = version("jobdedup")
    except PackageNotFoundError:  # run from a source tree without an install
        pkg = "(not installed)"
    return f"jobdedup {pkg}\nsig_version {SIG_VERSION}\nsolr {SOLR_VERSION} (pinned: configset and plugin are built for it)"


def _print_version(value: bool) -> None:
    if value:
        print(version_text())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print the jobdedup version, SIG_VERSION and the pinned Solr release."),
) -> None:
    """Near-duplicate detection for job postings, built around Apache Solr."""


def _register() -> None:
    """Attach every command module; each exposes `register(app)`."""
    from service import cli_dedup, cli_eval, cli_generate, cli_index, cli_recompute, cli_serve, cli_sig

    for module in (cli_sig, cli_eval, cli_generate, cli_dedup, cli_index, cli_serve, cli_recompute):
        module.register(app)


#: Placeholders of the options every command names alike (others: TEXT, INT or NUM by type).
_METAVARS = {"--output": "FILE", "--bad-lines-report": "FILE", "--data": "FILE", "--labels": "FILE",
             "--map": "FIELD=COLUMN", "--solr": "URL", "--state-dir": "DIR", "--checkpoint": "DIR",
             "--encoding": "NAME", "--format": "FORMAT", "--host": "ADDRESS", "--log-level": "LEVEL",
             "--lang": "LANG", "--fields": "FIELDS"}


def _plain_metavars(command: Any) -> None:
    """Help shows FILE/TEXT/INT placeholders and nothing for flags, not Typer's `<bool>`/`<list[str]>`
    type labels (newer Typer): options without an explicit metavar get one from their click type."""
    for param in getattr(command, "params", []):
        if getattr(param, "param_type_name", "") == "argument":
            param.metavar = param.metavar or param.name.upper()
            param.display_type_rich = lambda ctx: None  # the name alone says it
        elif getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.metavar is None and (named := [_METAVARS[o] for o in param.opts if o in _METAVARS]):
            param.metavar = named[0]
        elif param.metavar is None:
            kind = param.bare_type() if hasattr(param, "bare_type") else param.type.name  # Typer >= 0.20 / click
            param.metavar = "INT" if "int" in kind else "NUM" if "float" in kind else "TEXT"
    if hasattr(command, "get_help_option"):  # --help is made on demand: no placeholder for it either
        made = command.get_help_option

        def get_help_option(ctx: Any, made: Any = made) -> Any:
            option = made(ctx)
            if option is not None:
                option.metavar = ""
            return option

        command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub)


class _Terminated(BaseException):
    """SIGTERM in the command's process: unwinds like Ctrl-C, so an output file being written is removed
    (service.files.atomic_output) and the file it would have replaced stays as it was."""


def _terminate_on_sigterm() -> None:
    """SIGTERM raises _Terminated in this process. A forked worker gets the default back (it dies of it at
    once, as a pool's terminate expects: a Python handler runs only between bytecodes, so a worker idle in a
    semaphore wait when SIGTERM came would never run it and the pool would wait for it for ever)."""
    main_pid = os.getpid()

    def handler(signum: int, frame: Any) -> None:
        if os.getpid() != main_pid:  # forked before the reset below took effect
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise _Terminated

    signal.signal(signal.SIGTERM, handler)
    os.register_at_fork(after_in_child=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL))


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: user errors become one line on stderr and exit code 2; Ctrl-C and
    SIGTERM end the command with 130 / 143, leaving no partial output behind."""
    _register()
    command = typer.main.get_command(app)
    _plain_metavars(command)
    _terminate_on_sigterm()
    try:
        code = command.main(args=argv, prog_name="jobdedup", standalone_mode=False)
        # Typer >= 0.2x catches Ctrl-C itself as Exit(130) and, outside standalone mode, returns the exit code
        # of an Exit instead of raising it (a command returns None): exit with it, not 0
        if code == 130:
            raise KeyboardInterrupt
        if isinstance(code, int) and code:
            sys.exit(code)
    except UserError as exc:
        print(f"jobdedup: error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        print("jobdedup: interrupted", file=sys.stderr)
        sys.exit(130)
    except _Terminated:
        print("jobdedup: terminated", file=sys.stderr)
        sys.exit(128 + signal.SIGTERM)
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
