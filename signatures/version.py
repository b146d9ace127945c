"""The signature version: one string that changes whenever any stored signature could change.

Anything that alters profile signatures, sketches or band keys (algorithm, parameters, tokenizer
or dictionary versions) must bump SIG_VERSION, so `jobdedup recompute` knows what is stale.
"""

SIG_VERSION = "5"
"""History (what a bump made stale):
* "5": Chinese/Japanese profile_sig signs the description without the parts one ad changes between versions
  (signatures.profile.volatile_core): the sections under a benefits / selling-points / how-to-apply / headcount
  heading (【待遇・福利厚生】, ■ここがポイント, ## 応募方法, **联系方式**, <h3>福利</h3> ...) up to the next heading, and
  listing-data lines anywhere (情報更新日：…, 応募締切：…, 募集人数：…, 更新时间：…, 招聘人数：…); their words still set the
  description's quantization (signatures.profile._quant_max); its job facts read half-width headings (ｱｸｾｽ); its
  title is signed without leading promotional tags (【急募】…, ★急募★…, [急聘]…; TITLE_PROMO_WORDS). Generated
  job-board revisions keep their signature on 94.5 % ja / 99.4 % zh (was 75.2 % / 95.1 %), other-store / other-terms /
  other-occupation ads as apart as before (benchmarks/eval_profile.py --synthetic 200); real postings: 46 of 382 ja,
  52 of 1,109 zh values change, 20 ja pairs of one ad's revisions newly equal, none newly apart, no other pair newly
  equal. Latin-script postings (Solr's `signature`), sketches and band keys are unchanged.
* "4": Chinese/Japanese profile_sig also signs the description's job facts, unquantized, after its fields
  (signatures.profile.facts_profile, signatures.jobfacts): the store / station / address units of its
  勤務地 / アクセス / 最寄り駅 / 店舗 / 工作地点 lines and the employment type, pay unit, shift and clock hours of
  its 雇用形態 / 給与 / 勤務時間 / 工作性质 / 薪资 / 工作时间 lines. One company's template for two stores, or
  for a full-time and a part-time job, signed alike (a long description's quantization drops words
  written once). Postings without such lines keep their SIG_VERSION 3 value (real data: 47 of 382 ja,
  657 of 1,109 zh postings change, no two of them newly equal or newly apart); Latin-script postings
  (Solr's `signature`), sketches and band keys are unchanged.
* "3": Chinese/Japanese profile_sig signs the description without up to 3 trailing platform footers
  (signatures.profile.footer_core: "※この求人情報は「…」に掲載されています", "掲載期間：…",
  "本职位信息由…发布，未经许可请勿转载"). Latin-script postings (Solr's `signature`), sketches and band keys
  are unchanged. With it, the company field key (`company_key_s`, service.features.field_key) is the
  verifier's employer name (signatures.employer.employer_key: batch tags, Latin and CJK legal forms dropped),
  so "Acme (YC F24)" / "Acme, Inc." and 株式会社ミナト / (株)ミナト no longer read as a company conflict.
* "2": profile_sig and Solr's `signature` (the configset's `fields`) sign title + description, no longer
  company (one site fills it, another leaves it empty, for the same ad); Chinese/Japanese profile_sig
  signs the title without trailing site tags (signatures.profile.title_core: "… ／ 営業職", "…【急募】",
  "… [Engineering]"); a posting whose Han/kana are under 1/10 of its letters and digits is signed as
  Solr does (was: over CJK words, which kept only a long English text's most frequent words).
  Sketches and band keys are unchanged.
* "1": first release.
"""

#: The duplicate verifier's version: its features and shipped coefficients
#: (`signatures/data/verifier-<VERIFIER_VERSION>.json`). Decisions, not stored signatures, depend on it.
#: 2: explicit unknowns (missing evidence is never agreement), employer normalization, roles and role
#: families from the announced roles only, scikit-learn logistic regression, threshold and vetoes by grouped CV.
#: 3: retrained on the merged issue-9 features (English employer_jobs / roles_halved / links_same, Chinese role names
#: read as names, duties sections, pay_tiers weighed by the model): monotone gradient-boosted trees with 6 leaves.
VERIFIER_VERSION = "3"

# MinHash sketches (`mh_sketch`) and LSH band keys (`mh_bands`) are functions of exactly these values
# and the code in signatures/shingles.py, minhash.py, lsh.py: changing any of them bumps SIG_VERSION.
MINHASH = {
    "algorithm": "oph-optimal-densification",  # one-permutation hashing, Shrivastava 2017
    "token_hash": "xxh3_64",
    "num_perm": 128,
    "shingle_k": 5,  # word tokens; Han/kana: characters
    "seed": 0x6A6F6264,
    "lsh_threshold": 0.3,
    "lsh_bands": 37,  # = signatures.lsh.optimal_params(0.3, 128), checked by tests/test_lsh.py
    "lsh_rows": 3,
}

# Tokenizers whose output decides `profile_sig` (pinned in pyproject.toml). Upgrading any of them can
# change words, hence signatures: bump SIG_VERSION with it.
TOKENIZERS = {
    "jieba": "0.42.1",  # reference segmentation (dictionary dict.txt), precise mode, HMM off
    "rjieba": "0.2.2",  # jieba-rs binding used for speed; identical words on pure-Han runs
    "fugashi": "1.5.2",  # MeCab binding
    "unidic-lite": "1.0.8",  # Japanese dictionary (UniDic 2.1.2)
}


def tokenizer_mismatches() -> list[str]:
    """Installed tokenizer distributions whose version differs from TOKENIZERS (empty when all match)."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for dist, pinned in TOKENIZERS.items():
        try:
            have = version(dist)
        except PackageNotFoundError:
            have = "not installed"
        if have != pinned:
            out.append(f"{dist}: pinned {pinned}, installed {have}")
    return out
