"""Auth: a real local Solr with security.json (BasicAuthPlugin + RuleBasedAuthorizationPlugin, written by
`python -m service.solr_security`) serves the client, `index`, `recompute` and `serve` when they have the
credentials (--solr-user / JOBDEDUP_SOLR_USER + JOBDEDUP_SOLR_PASSWORD, or in the URL) and refuses them
otherwise; `serve` with a token answers 401 without it on every endpoint but /health and the docs, and
refuses to listen beyond loopback without one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import orjson
import pytest
import requests
from java_harness import require_java_toolchain
from service_process import Service
from solr_fixture import CORE, start_local_solr, stop_local_solr

from service.solr import Solr, SolrError
from service.solr_security import password_hash
from service.synth import generate

REPO = Path(__file__).resolve().parents[1]
USER, PASSWORD = "jobdedup", "pa:ss/w@rd %ü€"  # URL syntax and non-Latin-1 characters
READER, READER_PASSWORD = "reader", "read-only-password"
TOKEN = "t0ken-for-the-service-0123456789"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})}, timeout=600)


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a local Solr that needs BasicAuth: USER may do everything, READER only read."""
    require_java_toolchain()
    home = tmp_path_factory.mktemp("secured-solr")
    sec = home / "security.json"
    res = subprocess.run([sys.executable, "-m", "service.solr_security", "--user", USER, "-o", str(sec)], cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO), "JOBDEDUP_SOLR_PASSWORD": PASSWORD},
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    doc = orjson.loads(sec.read_bytes())
    doc["authentication"]["credentials"][READER] = password_hash(READER_PASSWORD)
    doc["authorization"]["permissions"].insert(0, {"name": "read", "role": ["admin", "reader"]})
    doc["authorization"]["user-role"][READER] = ["reader"]
    sec.write_bytes(orjson.dumps(doc))
    try:
        yield start_local_solr(home, security=sec)
    finally:
        stop_local_solr(home)


def url_with(base: str, user: str, password: str) -> str:
    scheme, rest = base.split("://", 1)
    return f"{scheme}://{quote(user, safe='')}:{quote(password, safe='')}@{rest}/{CORE}"


def test_client_sends_the_credentials_of_its_url(secured: str) -> None:
    assert requests.get(f"{secured}/{CORE}/select", params={"q": "*:*"}, timeout=30).status_code == 401
    solr = Solr(url_with(secured, USER, PASSWORD))
    assert PASSWORD not in solr.url + solr.base and solr.url == f"{secured}/{CORE}"
    assert solr.health()["ping"] == "OK"
    solr.update([{"id": "auth-1", "title": "Nurse"}], commit=True)
    assert [d["id"] for d in solr.get(["auth-1"], fl="id")] == ["auth-1"]

    reader = Solr(url_with(secured, READER, READER_PASSWORD))
    assert reader.count() >= 1  # may read
    with pytest.raises(SolrError, match="403.*may not") as exc:
        reader.update([{"id": "auth-2"}])
    assert exc.value.status == 403
    with pytest.raises(SolrError, match="401.*credentials") as exc:
        Solr(url_with(secured, USER, "wrong")).count()
    assert PASSWORD not in str(exc.value)


def test_index_and_recompute_with_solr_user_and_password_from_env(secured: str, tmp_path: Path) -> None:
    url = f"{secured}/{CORE}"
    posts = {p["id"]: p for p in generate(80, seed=5, resight_rate=0.0)}
    src = tmp_path / "p.jsonl"
    src.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in posts.values()))
    state = ("--state-dir", str(tmp_path / "state"))

    res = cli("index", str(src), "--solr", url, "-q", *state)  # no credentials
    assert res.returncode == 2 and "401" in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
    res = cli("index", str(src), "--solr", url, "--solr-user", USER, "-q", *state)  # no password in env
    assert res.returncode == 2 and "JOBDEDUP_SOLR_PASSWORD" in res.stderr

    res = cli("index", str(src), "--solr", url, "--solr-user", USER, "-q", *state,
              env={"JOBDEDUP_SOLR_PASSWORD": PASSWORD})
    assert res.returncode == 0, res.stderr
    solr = Solr(url_with(secured, USER, PASSWORD))
    assert len(solr.get(list(posts), fl="id")) == len(posts)

    res = cli("recompute", "--solr", url, "-q", *state,
              env={"JOBDEDUP_SOLR_USER": USER, "JOBDEDUP_SOLR_PASSWORD": PASSWORD})
    assert res.returncode == 0, res.stderr
    res = cli("index", str(src), "--solr", url_with(secured, USER, PASSWORD), "-q", *state)  # in the URL
    assert res.returncode == 0, res.stderr
    assert PASSWORD not in res.stderr


def test_serve_needs_a_token_beyond_loopback(tmp_path: Path) -> None:
    args = ("serve", "--solr", "http://127.0.0.1:9/solr/postings", "--state-dir", str(tmp_path))
    for extra, env in (((), {}), (("--token", "short"), {}), ((), {"JOBDEDUP_TOKEN": "short"})):
        res = cli(*args, "--host", "0.0.0.0", *extra, env=env)
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "token" in res.stderr.lower()
    assert "--solr-password" not in cli("serve", "--help").stdout  # the password never goes on a command line


def test_serve_with_a_token_in_front_of_a_secured_solr(secured: str, tmp_path: Path) -> None:
    svc = Service(f"{secured}/{CORE}", tmp_path / "state", token=TOKEN,
                  env={"JOBDEDUP_TOKEN": TOKEN, "JOBDEDUP_SOLR_USER": USER, "JOBDEDUP_SOLR_PASSWORD": PASSWORD})
    try:
        health = requests.get(f"{svc.url}/health", timeout=30)  # open, and Solr answers with the credentials
        assert health.status_code == 200 and health.json()["status"] == "ok", health.text
        for path in ("/openapi.json", "/docs"):
            assert requests.get(f"{svc.url}{path}", timeout=30).status_code == 200, path
        spec = requests.get(f"{svc.url}/openapi.json", timeout=30).json()
        assert spec["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
        assert spec["paths"]["/v1/postings"]["post"]["security"] == [{"bearer": []}]
        assert "security" not in spec["paths"]["/health"]["get"]
        body = {"postings": [{"id": "tok-1", "title": "Welder", "description": "Welding in Bremen."}]}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"},
                        {"Authorization": f"Bearer {TOKEN}x"}, {"Authorization": TOKEN}):
            r = requests.post(f"{svc.url}/v1/postings", json=body, headers=headers, timeout=30)
            assert r.status_code == 401 and r.headers["WWW-Authenticate"] == "Bearer", headers
            for method, path in (("GET", "/metrics"), ("GET", "/v1/postings/tok-1/duplicates"),
                                 ("POST", "/v1/signatures")):
                assert requests.request(method, f"{svc.url}{path}", json=body, headers=headers,
                                        timeout=30).status_code == 401, (path, headers)
        assert [r["status"] for r in svc.post(body["postings"])] == ["new"]
        r = requests.get(f"{svc.url}/v1/postings/tok-1/duplicates", headers=svc.headers, timeout=30)
        assert r.status_code == 200 and r.json()["dup_group"] == "tok-1"
        assert svc.learned() == 1
    finally:
        svc.stop()
