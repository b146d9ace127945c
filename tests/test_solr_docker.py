"""docker/docker-compose.yml cannot run here (no Docker engine in CI): check that it and the Dockerfiles
parse and agree with the rest of the repository -- pinned images, the plugin jar built in the image (no
host bind mount), configset path, modules the schema needs, healthchecks and restart policies, the
service command the CLI really accepts, a .dockerignore that keeps every COPY source."""

from __future__ import annotations

import fnmatch
import json
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


def _dockerfile(service: dict) -> Path:
    build = service["build"]
    return (DOCKER / build["context"] / build["dockerfile"]).resolve()


def _instructions(dockerfile: Path) -> list[tuple[str, list[str]]]:
    """(INSTRUCTION, arguments) per instruction, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text(encoding="utf-8"))
    return [(line.split()[0].upper(), shlex.split(line)[1:]) for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def _copies(dockerfile: Path) -> list[tuple[str | None, list[str], str]]:
    """(--from stage or None, sources, destination) of every COPY."""
    out = []
    for op, args in _instructions(dockerfile):
        if op == "COPY":
            flags = dict(a[2:].split("=", 1) for a in args if a.startswith("--"))
            paths = [a for a in args if not a.startswith("--")]
            out.append((flags.get("from"), paths[:-1], paths[-1]))
    return out


def _solr_version() -> str:
    return _pom(REPO / "solr-config" / "pom.xml").find("m:properties/m:solr.version", NS).text


def test_solr_image_is_the_pinned_release(compose: dict) -> None:
    solr = compose["services"]["solr"]
    froms = [args for op, args in _instructions(_dockerfile(solr)) if op == "FROM"]
    assert froms[-1] == [f"solr:{_solr_version()}"]  # the final stage is the official image, pinned
    assert solr["image"].endswith(f":{_solr_version()}")


def test_every_base_image_is_pinned_to_a_release(compose: dict) -> None:
    for name, service in compose["services"].items():
        for op, args in _instructions(_dockerfile(service)):
            if op == "FROM":
                image = args[0]
                assert re.fullmatch(r"[a-z0-9./-]+:\d+\.\d+\.\d+[\w.-]*(@sha256:[0-9a-f]{64})?", image), (name, image)
    assert compose["services"]["jobdedup"]["image"].endswith(":" + re.search(
        r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8"), re.M).group(1))


def test_plugin_jar_is_built_in_the_image_not_bound_from_the_host(compose: dict) -> None:
    solr = compose["services"]["solr"]
    binds = [v for v in solr.get("volumes", []) if str(v).startswith((".", "/"))]
    assert binds == []  # a missing bind source would become an empty directory, not an error
    dockerfile = _dockerfile(solr)
    steps = _instructions(dockerfile)
    build = next(args for op, args in steps if op == "FROM" and len(args) == 3)  # FROM maven:... AS plugin
    assert build[0].startswith("maven:") and "eclipse-temurin-17" in build[0] and build[2] == "plugin"
    runs = " ".join(" ".join(args) for op, args in steps if op == "RUN")
    assert "mvn" in runs and "-f solr-config/pom.xml -pl plugin -am package" in runs

    plugin_pom = _pom(REPO / "solr-config" / "plugin" / "pom.xml")
    artifact = plugin_pom.find("m:artifactId", NS).text
    version = plugin_pom.find("m:parent/m:version", NS).text
    copies = _copies(dockerfile)
    (jar, dest), = [(srcs[0], dst) for stage, srcs, dst in copies if stage == "plugin"]
    assert jar.endswith(f"/solr-config/plugin/target/{artifact}-{version}.jar")
    shared_lib = re.search(r"-Dsolr\.sharedLib=(\S+)", solr["environment"]["SOLR_OPTS"]).group(1)
    assert dest.rstrip("/") == shared_lib
    # the reactor's module poms are all in the build stage (Maven reads them even for -pl plugin)
    modules = [m.text for m in _pom(REPO / "solr-config" / "pom.xml").findall("m:modules/m:module", NS)]
    copied = {src for stage, srcs, _ in copies if stage is None for src in srcs}
    assert {f"solr-config/{m}/pom.xml" for m in modules} <= copied and "solr-config/plugin/src" in copied


def test_configset_is_copied_where_the_core_is_created_from(compose: dict) -> None:
    solr = compose["services"]["solr"]
    command = solr["command"]
    assert command[:2] == ["solr-precreate", "postings"]
    (configset,) = [srcs[0] for stage, srcs, dst in _copies(_dockerfile(solr)) if stage is None and dst == command[2]]
    configset = REPO / configset
    assert configset == REPO / "solr-config" / "postings"
    assert (configset / "conf" / "solrconfig.xml").is_file()

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


def test_healthchecks_and_restart_policies(compose: dict) -> None:
    for name, service in compose["services"].items():
        assert service["restart"] in ("unless-stopped", "always", "on-failure"), name
        check = service["healthcheck"]
        assert check["test"][0] in ("CMD", "CMD-SHELL") and check["retries"] >= 3, name
    probe = " ".join(compose["services"]["jobdedup"]["healthcheck"]["test"])
    port = compose["services"]["jobdedup"]["command"][compose["services"]["jobdedup"]["command"].index("--port") + 1]
    assert f"127.0.0.1:{port}/health" in probe and "curl" not in probe  # python:slim has no curl
    assert "/solr/postings/admin/ping" in " ".join(compose["services"]["solr"]["healthcheck"]["test"])


def test_dockerignore_keeps_every_copy_source(compose: dict) -> None:
    """The context is the repository root: .dockerignore leaves out .git, build outputs and local Solr
    homes, never a file a Dockerfile copies (docker's patterns, checked with fnmatch: close enough for
    these plain patterns)."""
    patterns = [p.strip() for p in (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
                if p.strip() and not p.startswith("#")]
    assert not any(p.startswith("!") for p in patterns)

    def ignored(rel: str) -> bool:
        parts = rel.split("/")
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        return any(fnmatch.fnmatchcase(pre, pat) or (pat.startswith("**/") and fnmatch.fnmatchcase(
            parts[i - 1], pat[3:])) for pat in patterns for i, pre in enumerate(prefixes, start=1))

    for pat in (".git", "**/target", "solr-config/.local-solr", "**/__pycache__"):
        assert pat in patterns
    assert ignored("solr-config/plugin/target/x.jar") and ignored(".git/HEAD") and ignored("postings.jsonl")
    for service in compose["services"].values():
        for stage, srcs, _ in _copies(_dockerfile(service)):
            for src in srcs if stage is None else []:
                path = REPO / src
                assert path.exists(), src
                files = [path] if path.is_file() else [f for f in path.rglob("*") if f.is_file()
                                                      and "__pycache__" not in f.parts]
                for f in files:
                    assert not ignored(f.relative_to(REPO).as_posix()), f


def test_service_image_and_command(compose: dict) -> None:
    svc = compose["services"]["jobdedup"]
    assert _dockerfile(svc) == DOCKER / "Dockerfile"
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


def test_solr_needs_basic_auth_from_a_security_json_in_the_environment(compose: dict) -> None:
    solr = compose["services"]["solr"]
    (config,) = solr["configs"]
    assert config["target"] == "/var/solr/data/security.json"  # the Solr home's
    content = compose["configs"][config["source"]]["content"]
    assert _required_env(content, "JOBDEDUP_SOLR_SECURITY_JSON")
    # made by the generator tests/test_solr_auth.py runs against a real Solr
    assert "python -m service.solr_security -o -" in content
    res = subprocess.run([sys.executable, "-m", "service.solr_security", "-o", "-"], capture_output=True, text=True,
                         timeout=60, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO),
                                                    "JOBDEDUP_SOLR_PASSWORD": "a-password"})
    assert res.returncode == 0 and "a-password" not in res.stdout, res.stderr
    assert json.loads(res.stdout)["authentication"]["blockUnknown"] is True
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
