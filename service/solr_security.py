"""A security.json for a Solr that needs BasicAuth: one user with every permission.

    JOBDEDUP_SOLR_PASSWORD=... python -m service.solr_security [--user jobdedup] -o security.json   (- : stdout)

BasicAuthPlugin (blockUnknown: nothing answers without credentials) + RuleBasedAuthorizationPlugin. The
password comes from env JOBDEDUP_SOLR_PASSWORD (never the command line) and is stored as Solr stores it:
base64(sha256(sha256(salt + password))) and the base64 salt. Standalone Solr reads the file from its home
(`solr-config/local-solr start --security FILE`; docker/docker-compose.yml mounts it from env
JOBDEDUP_SOLR_SECURITY_JSON); SolrCloud from ZooKeeper.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import orjson
import typer

from service.cli_options import PASSWORD_ENV
from service.files import write_atomic


def password_hash(password: str, salt: bytes | None = None) -> str:
    """A credential as Solr's Sha256AuthenticationProvider checks it: "<base64 hash> <base64 salt>"."""
    salt = secrets.token_bytes(32) if salt is None else salt
    digest = hashlib.sha256(hashlib.sha256(salt + password.encode("utf-8")).digest()).digest()
    return f"{base64.b64encode(digest).decode()} {base64.b64encode(salt).decode()}"


def security_json(users: dict[str, str], roles: dict[str, list[str]] | None = None,
                  permissions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """security.json for `users` (name -> password); default: every user may do everything."""
    return {
        "authentication": {"class": "solr.BasicAuthPlugin", "blockUnknown": True, "forwardCredentials": False,
                           "credentials": {u: password_hash(p) for u, p in users.items()}},
        "authorization": {"class": "solr.RuleBasedAuthorizationPlugin",
                          "permissions": permissions or [{"name": "all", "role": "admin"}],
                          "user-role": roles or {u: ["admin"] for u in users}},
    }


def main(user: str = typer.Option("jobdedup", "--user", envvar="JOBDEDUP_SOLR_USER", help="The Solr user."),
         out: str = typer.Option(..., "--out", "-o", help="Where to write security.json ('-': stdout).")) -> None:
    """Write a security.json with one BasicAuth user (password from env JOBDEDUP_SOLR_PASSWORD)."""
    password = os.environ.get(PASSWORD_ENV)
    if not password:
        print(f"error: set the password in env {PASSWORD_ENV}", file=sys.stderr)
        raise typer.Exit(2)
    data = orjson.dumps(security_json({user: password}), option=orjson.OPT_INDENT_2)
    if out == "-":
        sys.stdout.write(data.decode() + "\n")
    else:
        write_atomic(Path(out), data)


if __name__ == "__main__":
    typer.run(main)
