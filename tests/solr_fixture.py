"""A real Solr for the tests: session fixtures that start `solr-config/local-solr` and stop it at the end.

* `solr_url`       -- base URL (``http://127.0.0.1:PORT/solr``) of a standalone Solr with core ``postings``
* `clean_solr`     -- the same URL, after deleting every document (function scope: a clean core)
* `solr_cloud_url` -- base URL of a 2-node SolrCloud (embedded ZooKeeper), collection ``postings`` with
  2 shards routed by ``dup_group``
Helpers: `clear_core`, `post_docs`, `select`, `soft_commits` (Solr soft-committing all the time), and `generate_postings` (synthetic postings with awkward
Unicode, shared with benchmarks/bench_solr_index.py).

Without Java or Maven the fixtures skip loudly; with CI=true they fail instead.
"""

from __future__ import annotations

import contextlib
import random
import socket
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import requests
from java_harness import require_java_toolchain

REPO = Path(__file__).resolve().parents[1]
LOCAL_SOLR = REPO / "solr-config" / "local-solr"
CORE = "postings"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_local_solr(home: Path, *, port: int | None = None, cloud: int = 0, timeout: float = 900,
                     security: Path | None = None) -> str:
    """Run `local-solr start` (builds with Maven when needed) and return the base URL it prints;
    `security`: a security.json to install (standalone)."""
    args = [str(LOCAL_SOLR), "start", "--home", str(home), "--port", str(port or free_port())]
    if cloud:
        args += ["--cloud", str(cloud)]
    if security is not None:
        args += ["--security", str(security)]
    res = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if res.returncode != 0:
        raise RuntimeError(f"local-solr start failed ({res.returncode}):\n{res.stdout}\n{res.stderr[-4000:]}")
    return res.stdout.strip().splitlines()[-1]


def stop_local_solr(home: Path) -> None:
    """Run `local-solr stop` for the instance under `home`."""
    subprocess.run([str(LOCAL_SOLR), "stop", "--home", str(home)], capture_output=True, text=True, timeout=120)


def _solr_session(tmp_path_factory: pytest.TempPathFactory, name: str, cloud: int) -> Iterator[str]:
    require_java_toolchain()  # skips loudly locally, fails in CI
    home = tmp_path_factory.mktemp(name)
    try:
        yield start_local_solr(home, cloud=cloud)
    finally:
        stop_local_solr(home)


@pytest.fixture(scope="session")
def solr_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a standalone local Solr (core `postings`), started once per test session."""
    yield from _solr_session(tmp_path_factory, "local-solr", cloud=0)


@pytest.fixture(scope="session")
def solr_cloud_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a 2-node local SolrCloud with the 2-shard collection `postings` (router.field=dup_group)."""
    yield from _solr_session(tmp_path_factory, "local-solr-cloud", cloud=2)


@pytest.fixture
def clean_solr(solr_url: str) -> str:
    """`solr_url` after deleting every document of core `postings`."""
    clear_core(solr_url)
    return solr_url


def clear_core(base_url: str, core: str = CORE) -> None:
    """Delete all documents of `core` and commit."""
    post_docs(base_url, {"delete": {"query": "*:*"}}, core=core)


def post_docs(base_url: str, body: Any, core: str = CORE, commit: bool = True, **params: str) -> dict:
    """POST a JSON update (a list of postings or an update-command object) to /update; raise on errors."""
    if commit:
        params.setdefault("commit", "true")
    r = requests.post(f"{base_url}/{core}/update", json=body, params=params, timeout=300)
    if r.status_code != 200:
        raise RuntimeError(f"Solr update failed ({r.status_code}): {r.text[:2000]}")
    return r.json()


def select(base_url: str, core: str = CORE, **params: Any) -> dict:
    """GET /select with `params` (wt=json) and return the decoded response."""
    params.setdefault("wt", "json")
    r = requests.get(f"{base_url}/{core}/select", params=params, timeout=120)
    r.raise_for_status()
    return r.json()


@contextlib.contextmanager
def soft_commits(base_url: str, core: str = CORE) -> Iterator[list[int]]:
    """Soft commits of `core`, one after the other in a thread, while the block runs: the shortest commitWithin
    there is, each emptying the update log's maps that real-time get reads recent writes from (the list's one
    item counts them)."""
    done = threading.Event()
    count = [0]

    def run() -> None:
        with requests.Session() as session:
            while not done.is_set():
                session.get(f"{base_url}/{core}/update", params={"commit": "true", "softCommit": "true"},
                            timeout=120).raise_for_status()
                count[0] += 1

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        yield count
    finally:
        done.set()
        t.join()


# --- synthetic postings -------------------------------------------------------------------------

_WORDS_EN = (
    "senior junior staff principal python java rust golang backend frontend data platform machine "
    "learning engineer developer manager analyst scientist remote hybrid onsite berlin london tokyo "
    "shanghai salary equity benefits team product kubernetes postgres kafka spark design build ship"
).split()
_WORDS_ZH = "软件 工程师 高级 数据 分析 后端 开发 招聘 上海 北京 深圳 薪资 面议 经验 年 以上 团队 产品".split()
_WORDS_JA = "ソフトウェア エンジニア 募集 東京都 大阪 経験 年以上 開発 データ 分析 給与 応相談 チーム".split()
# characters where Java's UTF-16 rules and Python's code-point rules disagree, or that are just rude
_AWKWARD = [
    "İstanbul",  # Java toLowerCase('İ') is one char, Python's lower() gives two
    "ǅemal",  # titlecase letter
    "straße STRASSE",
    "ΣΊΣΥΦΟΣ σίσυφος",  # final sigma
    "𝐁𝐨𝐥𝐝 𝔉𝔯𝔞𝔨𝔱𝔲𝔯",  # supplementary letters: surrogate pairs, not letters to Java's char API
    "emoji 🚀🔥 rocket👩‍💻coder",  # ZWJ sequence
    "ｆｕｌｌｗｉｄｔｈ　ＡＢＣ　１２３",  # full-width letters, ideographic space
    "٠١٢٣ arabic-indic digits ٤٥",
    "e\u0301clair cafe\u0301 café",  # combining acute vs precomposed
    "zero\u200bwidth\u200dspace\u00a0nbsp",
    "\u202eRTL override\u202c and \u200fmark",
    "tab\tnew\nline\r\ncontrol\u0007bell",
    "ⅻ roman Ⅻ numeral ½ ² ³",
    "a b c de fg hij",  # tokens at and below minTokenLen
    "<p>HTML <b>bold</b> &amp; entities &lt;tag&gt;</p>",
    "x" * 300,  # one long token
    "ꓚ lisu ᏣᎳᎩ cherokee ⴰⵣⵓⵍ tifinagh",
    "ｶﾀｶﾅ halfwidth katakana ﾃﾞｰﾀ",
]


def _sentence(rng: random.Random, words: Sequence[str], n: int, sep: str = " ") -> str:
    return sep.join(rng.choice(words) for _ in range(n))


def generate_postings(n: int, seed: int = 7, group_size: tuple[int, int] = (1, 4)) -> list[dict[str, Any]]:
    """`n` synthetic postings in groups of near-identical reposts (shared text, case/punctuation noise),
    mixing English, Chinese, Japanese and awkward Unicode. Each posting has `id` and `_truth` (its
    group number, a test-only field kept by the catch-all dynamic field)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    group = 0
    while len(out) < n:
        lang = rng.choice(("en", "en", "zh", "ja", "mixed"))
        if lang == "zh":
            title = _sentence(rng, _WORDS_ZH, rng.randint(2, 5), "")
            body = "，".join(_sentence(rng, _WORDS_ZH, rng.randint(4, 12), "") for _ in range(rng.randint(2, 6)))
        elif lang == "ja":
            title = _sentence(rng, _WORDS_JA, rng.randint(2, 4), "")
            body = "。".join(_sentence(rng, _WORDS_JA, rng.randint(4, 10), "") for _ in range(rng.randint(2, 6)))
        else:
            title = _sentence(rng, _WORDS_EN, rng.randint(2, 6)).title()
            body = ". ".join(_sentence(rng, _WORDS_EN, rng.randint(5, 20)) for _ in range(rng.randint(2, 8)))
        if lang == "mixed" or rng.random() < 0.3:
            body += " " + " ".join(rng.sample(_AWKWARD, rng.randint(1, 4)))
        if rng.random() < 0.2:
            title += " " + rng.choice(_AWKWARD)[:40]
        company = rng.choice(["Acme GmbH", "Initech", "株式会社テスト", "腾讯科技", "Ünïcödé Ltd", "Hooli", "ǅ&Co"])
        for k in range(rng.randint(*group_size)):
            if len(out) >= n:
                break
            posting: dict[str, Any] = {"id": f"p{len(out):06d}", "_truth": str(group), "lang": lang}
            # reposts: case and punctuation noise only, which TextProfileSignature ignores
            t = title.upper() if k % 2 else title
            d = body.replace(". ", "! ") if k % 3 == 1 else body
            if rng.random() < 0.95:
                posting["title"] = t
            if rng.random() < 0.9:
                posting["company"] = company + ("." if k else "")
            if rng.random() < 0.97:
                posting["description"] = d
            out.append(posting)
        group += 1
    return out
