"""docker/docker-compose.yml cannot run here (no Docker engine in CI): check that it parses and agrees
with the rest of the repository -- pinned Solr release, configset and plugin paths, modules the schema
needs, the service command the CLI really accepts."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
DOCKER = REPO / "docker"
NS = {"m": "http://maven.apache.org/POM/4.0.0"}


@pytest.fixture(scope="module")
def compose() -> dict:
    data = yaml.safe_load((DOCKER / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict) and set(data["services"]) == {"solr", "jobdedup"}
    return data


def test_compose_file_follows_the_compose_specification() -> None:
    if os.environ.get("CI") == "true":
        import compose_spec  # a declared test dependency: in CI its absence is a failure
    else:
        compose_spec = pytest.importorskip("compose_spec", reason="pip install -e '.[test]' (compose-spec)")
    text = (DOCKER / "docker-compose.yml").read_text(encoding="utf-8")
    spec = compose_spec.PyCompose.from_yaml(text)  # raises ValueError with the offending path and line
    spec.validate()
    assert spec.service_names() == ["solr", "jobdedup"]
    with pytest.raises(ValueError, match="healthchek"):  # the validator really checks keys
        compose_spec.PyCompose.from_yaml(text.replace("healthcheck:", "healthchek:"))


def _pom(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def _volumes(service: dict) -> dict[str, Path]:
    """container path -> host path (resolved against docker/) of the bind mounts."""
    out = {}
    for v in service["volumes"]:
        host, container, *_ = v.split(":")
        if host.startswith("."):
            out[container] = (DOCKER / host).resolve()
    return out


def test_solr_image_is_the_pinned_release(compose: dict) -> None:
    version = _pom(REPO / "solr-config" / "pom.xml").find("m:properties/m:solr.version", NS).text
    assert compose["services"]["solr"]["image"] == f"solr:{version}"


def test_configset_and_plugin_mounts_match_the_build(compose: dict) -> None:
    solr = compose["services"]["solr"]
    mounts = _volumes(solr)
    command = solr["command"]
    assert command[:2] == ["solr-precreate", "postings"]
    configset = mounts[command[2]]
    assert configset == REPO / "solr-config" / "postings"
    assert (configset / "conf" / "solrconfig.xml").is_file()

    plugin_pom = _pom(REPO / "solr-config" / "plugin" / "pom.xml")
    artifact = plugin_pom.find("m:artifactId", NS).text
    version = plugin_pom.find("m:parent/m:version", NS).text
    shared_lib = re.search(r"-Dsolr\.sharedLib=(\S+)", solr["environment"]["SOLR_OPTS"]).group(1)
    jars = {c: h for c, h in mounts.items() if c.endswith(".jar")}
    assert len(jars) == 1
    (container, host), = jars.items()
    assert host == REPO / "solr-config" / "plugin" / "target" / f"{artifact}-{version}.jar"
    assert str(Path(container).parent) == shared_lib

    # the classes the chain names are the plugin's
    config = (configset / "conf" / "solrconfig.xml").read_text(encoding="utf-8")
    classes = re.findall(r'class="(io\.jobdedup\.[\w.]+)"', config)
    assert len(classes) >= 2
    for cls in classes:
        src = REPO / "solr-config" / "plugin" / "src" / "main" / "java" / (cls.replace(".", "/") + ".java")
        assert src.is_file(), cls


def test_solr_modules_cover_the_schema_analyzers(compose: dict) -> None:
    schema = (REPO / "solr-config" / "postings" / "conf" / "managed-schema.xml").read_text(encoding="utf-8")
    modules = compose["services"]["solr"]["environment"]["SOLR_MODULES"].split(",")
    if "ICUTokenizerFactory" in schema or "HMMChineseTokenizerFactory" in schema:
        assert "analysis-extras" in modules


def test_ports_are_published_on_loopback_only(compose: dict) -> None:
    for name, service in compose["services"].items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), (name, port)


def test_service_image_and_command(compose: dict) -> None:
    svc = compose["services"]["jobdedup"]
    dockerfile = (DOCKER / svc["build"]["context"] / svc["build"]["dockerfile"]).resolve()
    assert dockerfile == DOCKER / "Dockerfile"
    for line in dockerfile.read_text(encoding="utf-8").splitlines():
        if line.startswith("COPY "):
            for src in shlex.split(line)[1:-1]:
                assert (REPO / src).exists(), src
    assert svc["depends_on"]["solr"]["condition"] == "service_healthy"
    cmd = svc["command"]
    assert cmd[:2] == ["jobdedup", "serve"]
    assert cmd[cmd.index("--solr") + 1] == "http://solr:8983/solr/postings"
    # every option the compose file passes exists in the real CLI
    res = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    for opt in (a for a in cmd if a.startswith("--")):
        assert opt in res.stdout, opt


def _required_env(value: str, name: str) -> bool:
    """`value` is compose's `${NAME:?message}`: compose refuses to start when NAME is unset or empty."""
    return re.fullmatch(r"\$\{" + name + r":\?.+\}", value) is not None


def test_solr_needs_basic_auth_from_a_mounted_security_json(compose: dict) -> None:
    solr = compose["services"]["solr"]
    assert _volumes(solr)["/var/solr/data/security.json"] == DOCKER / "security.json"  # the Solr home's
    assert "docker/security.json" in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
    # made by the generator tests/test_solr_auth.py runs against a real Solr
    assert "python -m service.solr_security -o docker/security.json" in (DOCKER / "docker-compose.yml").read_text(
        encoding="utf-8")
    health = solr["healthcheck"]["test"][1]
    assert '--user="$$JOBDEDUP_SOLR_USER"' in health and '--password="$$JOBDEDUP_SOLR_PASSWORD"' in health
    assert _required_env(solr["environment"]["JOBDEDUP_SOLR_PASSWORD"], "JOBDEDUP_SOLR_PASSWORD")


def test_service_gets_a_token_and_the_solr_credentials(compose: dict) -> None:
    svc = compose["services"]["jobdedup"]
    env = svc["environment"]
    assert _required_env(env["JOBDEDUP_TOKEN"], "JOBDEDUP_TOKEN")
    assert _required_env(env["JOBDEDUP_SOLR_PASSWORD"], "JOBDEDUP_SOLR_PASSWORD")
    assert env["JOBDEDUP_SOLR_USER"].startswith("${JOBDEDUP_SOLR_USER")
    # the command listens beyond loopback, so without the token the service would refuse to start
    cmd = svc["command"]
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0"
    clean = {k: v for k, v in os.environ.items() if k != "JOBDEDUP_TOKEN"}
    res = subprocess.run([sys.executable, "-m", "service.cli", *cmd[1:]], capture_output=True, text=True,
                         timeout=60, env={**clean, "PYTHONPATH": str(REPO)}, cwd=REPO)
    assert res.returncode == 2 and "JOBDEDUP_TOKEN" in res.stderr, res.stderr
