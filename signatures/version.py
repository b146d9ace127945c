"""The signature version: one string that changes whenever any stored signature could change.

Anything that alters profile signatures, sketches or band keys (algorithm, parameters, tokenizer
or dictionary versions) must bump SIG_VERSION, so `jobdedup recompute` knows what is stale.
"""

SIG_VERSION = "1"

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
