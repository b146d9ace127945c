"""Shingles over normalized tokens, as 64-bit hashes: the input of MinHash.

Text is normalized (NFKC, casefold) and cut into tokens: runs of word characters (letters, digits,
marks, underscore) for space-delimited scripts, one token per character for Han and kana, so a
k-shingle over Chinese/Japanese text is a character k-gram. Tokens are hashed with XXH3_64 (fixed seed;
bit-identical to the xxhash library, computed in numpy over a whole batch, so there is no Python call
per token or shingle); the k token hashes of a shingle are combined arithmetically (position-weighted
sum, then the MurmurHash3 64-bit finalizer). A caller with a real segmenter (jieba, fugashi) can pass
a token list instead of a text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import numpy as np
import xxhash

from signatures.version import MINHASH

__all__ = [
    "DEFAULT_K",
    "DEFAULT_SEED",
    "Shingler",
    "fmix64",
    "is_cjk_char",
    "normalize",
    "tokenize",
]

DEFAULT_K: int = MINHASH["shingle_k"]  # type: ignore[assignment]
DEFAULT_SEED: int = MINHASH["seed"]  # type: ignore[assignment]

_U64 = np.uint64
_MASK64 = (1 << 64) - 1

# Han (incl. extensions and compatibility ideographs), kana, iteration marks: one token per character.
_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035),  # kana repeat marks
    (0x303B, 0x303C),
    (0x3040, 0x30FF),  # hiragana, katakana (incl. ー)
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # compatibility ideographs
    (0x20000, 0x3FFFF),  # extensions B..H, compatibility supplement
)


def is_cjk_char(ch: str) -> bool:
    """True for a Han or kana word character (tokenized one character per token)."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES) and _is_word_char(ch)


def _is_word_char(ch: str) -> bool:
    """Word character: letter, digit/number, combining mark or underscore (\\w plus marks)."""
    return ch.isalnum() or ch == "_" or unicodedata.category(ch)[0] == "M"


_HANGUL_JAMO = ((0x1100, 0x11FF), (0x3131, 0x318E), (0xA960, 0xA97F), (0xD7B0, 0xD7FF), (0xFFA0, 0xFFDC))


def _composes(ch: str) -> bool:
    """Could this character take part in NFKC composition or reordering with a neighbour?"""
    cp = ord(ch)
    if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:
        return False  # variation selectors: combining class 0, in no composition
    return (
        unicodedata.combining(ch) != 0
        or unicodedata.category(ch)[0] == "M"
        or any(lo <= cp <= hi for lo, hi in _HANGUL_JAMO)
    )


def _classify(ch: str) -> str:
    """Replacement of one normalized character: word chars stay (Han/kana padded with spaces, so
    each is a token of its own), everything else becomes a space."""
    if not _is_word_char(ch):
        return " "
    return f" {ch} " if is_cjk_char(ch) else ch


class _NormalizedTable(dict):
    """str.translate table for already-normalized text (see _classify)."""

    def __missing__(self, cp: int) -> str:
        val = _classify(chr(cp))
        self[cp] = val
        return val


class _RawTable(dict):
    """str.translate table for raw text: per-character NFKC + casefold + word/space classification.

    Per-character NFKC equals whole-string NFKC unless characters compose or reorder across
    neighbours (combining marks, Hangul jamo); such characters map to NUL, and the caller then takes
    the exact whole-string path.
    """

    def __missing__(self, cp: int) -> str:
        ch = chr(cp)
        nf = unicodedata.normalize("NFKC", ch).casefold()
        if _composes(ch) or any(_composes(c) for c in nf):
            val = "\x00"
        else:
            val = "".join(map(_classify, nf))
        self[cp] = val
        return val


_NORM_TABLE = _NormalizedTable()
_RAW_TABLE = _RawTable()
_RAW_TABLE[0] = " "
# Byte-level pass over UTF-8: ASCII non-word bytes -> space; bytes >= 0x80 (multibyte UTF-8) kept.
_IS_CJK = np.zeros(0x110000, dtype=bool)
for _lo, _hi in _CJK_RANGES:
    _IS_CJK[_lo : _hi + 1] = True
_BYTES_TABLE = bytes(b if b >= 0x80 or _is_word_char(chr(b)) else 0x20 for b in range(256))


def normalize(text: str) -> str:
    """NFKC then casefold: full-width forms, ligatures and case variants compare equal."""
    return unicodedata.normalize("NFKC", text).casefold()


# Code point -> code point of its normalized, classified form, for characters whose NFKC + casefold
# is one word character (itself or another) or only non-word characters (-> space); Han/kana
# characters carry _CJK_BIT. _COMPLEX: anything else (expansions like "ß" -> "ss", characters that
# compose with neighbours); _UNBUILT: not built yet. Filled lazily in blocks of 256 code points.
_CJK_BIT = 1 << 24
_COMPLEX = 0xFFFFFFFE
_UNBUILT = 0xFFFFFFFF
_SPECIAL = _CJK_BIT  # values >= this need attention (CJK padding, complex, unbuilt)
_CP_MAP = np.full(0x110000, _UNBUILT, dtype=np.uint32)


def _build_cp_block(block: int) -> None:
    vals = np.empty(256, dtype=np.uint32)
    for i in range(256):
        ch = chr(block * 256 + i)
        val = _RAW_TABLE[ord(ch)]
        core = val.strip(" ")
        if val == "\x00":
            vals[i] = _COMPLEX
        elif core == "":
            vals[i] = 0x20
        elif len(val) == 1:
            vals[i] = ord(core)
        elif len(core) == 1 and val == f" {core} " and is_cjk_char(core):
            vals[i] = ord(core) | _CJK_BIT  # gets its spaces back in _texts_bytes_nonascii
        else:
            vals[i] = _COMPLEX
    _CP_MAP[block * 256 : block * 256 + 256] = vals


def _text_bytes(text: str) -> bytes:
    """Normalized text as UTF-8 in which every non-word character is a space (ASCII non-word
    characters are blanked later, in one bytes.translate over the whole batch)."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    if text.isascii():
        return text.lower().encode("ascii")  # NFKC is the identity, casefold == lower on ASCII
    return _texts_bytes_nonascii([text])[0]


def _slow_text_bytes(text: str) -> bytes:
    """Exact path for texts whose characters do not all map one-to-one (see _CP_MAP)."""
    out = text.translate(_RAW_TABLE)
    if "\x00" in out:
        out = unicodedata.normalize("NFKC", text).casefold().translate(_NORM_TABLE)
    return out.encode("utf-8", "surrogatepass")


_DOC_SEP = "\uffff"  # a noncharacter; replaced by a space inside texts (it is not a word character)


def _texts_bytes_nonascii(texts: list[str]) -> list[bytes]:
    """`_text_bytes` of many non-ASCII texts at once: one numpy pass over their code points."""
    joined = _DOC_SEP.join(texts)
    if joined.count(_DOC_SEP) != len(texts) - 1:
        texts = [t.replace(_DOC_SEP, " ") for t in texts]
        joined = _DOC_SEP.join(texts)
    cps = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    mapped = _CP_MAP[cps]
    special = np.flatnonzero(mapped >= _SPECIAL)
    if special.size and (mapped[special] == _UNBUILT).any():
        for block in np.unique(cps[special[mapped[special] == _UNBUILT]] >> 8).tolist():
            _build_cp_block(block)
        mapped = _CP_MAP[cps]
        special = np.flatnonzero(mapped >= _SPECIAL)
    lens = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    seps = np.cumsum(lens[:-1] + 1) - 1  # positions of the separators (one code point per char)
    mapped[seps] = 0x0A  # document separator; every newline inside a text maps to a space
    bad_docs: list[int] = []
    if special.size:
        vals = mapped[special]
        bad = special[vals == _COMPLEX]
        if bad.size:
            bad_docs = np.unique(np.searchsorted(seps, bad)).tolist()
            mapped[bad] = 0x20  # those documents are redone exactly below
        cjk = special[vals < _COMPLEX]
        if cjk.size:  # pad every Han/kana character with spaces
            mapped[cjk] &= np.uint32(_CJK_BIT - 1)
            extra = np.zeros(mapped.shape[0], dtype=np.int32)
            extra[cjk] = 2
            pos = np.cumsum(extra, dtype=np.int32)
            pos[cjk] -= 1
            pos += np.arange(mapped.shape[0], dtype=np.int32)
            padded = np.full(mapped.shape[0] + 2 * cjk.size, 0x20, dtype=np.uint32)
            padded[pos] = mapped
            mapped = padded
    out = mapped.astype("<u4", copy=False).tobytes().decode("utf-32-le").encode("utf-8").split(b"\n")
    for d in bad_docs:
        out[d] = _slow_text_bytes(texts[d])
    return out


def _token_spans(buf: bytes) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the maximal runs of non-space bytes of a buffer, vectorized."""
    word = np.zeros(len(buf) + 2, dtype=bool)
    np.not_equal(np.frombuffer(buf, dtype=np.uint8), 0x20, out=word[1:-1])
    edges = np.flatnonzero(word[1:] != word[:-1])  # alternately a token start and a token end
    return edges[0::2], edges[1::2]


def _token_bytes(text: str) -> list[bytes]:
    """UTF-8 tokens of one text (normalized here): the reference form of `tokenize`."""
    # After the translation the only separators are ASCII spaces (UTF-8 multibyte sequences never
    # contain ASCII bytes), so a bytes split yields exactly the tokens.
    return _text_bytes(text).translate(_BYTES_TABLE).split()


def tokenize(text: str) -> list[str]:
    """Normalized tokens of a text: word runs, and single Han/kana characters."""
    return [t.decode("utf-8", "surrogatepass") for t in _token_bytes(text)]


def _tokens_from_list(tokens: Sequence[str]) -> list[bytes]:
    """Normalize a segmenter's token list; tokens without any word character (punctuation,
    whitespace) are dropped, the rest are kept whole (no re-splitting)."""
    out: list[bytes] = []
    for tok in tokens:
        if not isinstance(tok, str):
            raise TypeError(f"token lists must hold str, got {type(tok).__name__}")
        t = unicodedata.normalize("NFKC", tok).casefold().strip()
        if t and any(_is_word_char(c) for c in t):
            out.append(t.encode("utf-8", "surrogatepass"))
    return out


# -- XXH3_64, vectorized over many short byte spans -------------------------------------------------
# XXH3 default secret, first 56 bytes (the part short inputs read), from the XXH3 specification.
_XXH3_SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248e"
)
_PRIME_MX1 = np.uint64(0x165667919E3779F9)
_PRIME_MX2 = np.uint64(0x9FB21C651E98DF25)
_P2 = np.uint64(0xC2B2AE3D27D4EB4F)
_P3 = np.uint64(0x165667B19E3779F9)
_M32 = np.uint64(0xFFFFFFFF)


def _le(off: int, size: int) -> int:
    return int.from_bytes(_XXH3_SECRET[off : off + size], "little")


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


def _avalanche_xxh64(h: np.ndarray) -> np.ndarray:
    h ^= h >> np.uint64(33)
    h *= _P2
    h ^= h >> np.uint64(29)
    h *= _P3
    h ^= h >> np.uint64(32)
    return h


def _mul128_fold64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(low 64 bits) xor (high 64 bits) of the 128-bit products a*b, from 32-bit halves."""
    a_lo, a_hi = a & _M32, a >> np.uint64(32)
    b_lo, b_hi = b & _M32, b >> np.uint64(32)
    p0, p1, p2 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo
    mid = (p0 >> np.uint64(32)) + (p1 & _M32) + (p2 & _M32)
    hi = a_hi * b_hi + (p1 >> np.uint64(32)) + (p2 >> np.uint64(32)) + (mid >> np.uint64(32))
    return (a * b) ^ hi


def xxh3_spans(buf: bytes, starts: np.ndarray, lens: np.ndarray, seed: int) -> np.ndarray:
    """XXH3_64(buf[s:s+l], seed) for every span, bit-identical to xxhash.xxh3_64_intdigest.

    Spans of 1-16 bytes (nearly all tokens) follow the specification's short-input formulas in
    numpy, three vectorized cases; other lengths go through the xxhash library one by one.
    """
    starts = np.asarray(starts, dtype=np.int64)
    lens = np.asarray(lens, dtype=np.int64)
    seed &= _MASK64
    padded = buf + bytes(8)
    npos = len(buf) + 1
    v8 = np.ndarray((npos,), dtype="<u8", buffer=padded, strides=(1,))
    v4 = np.ndarray((npos,), dtype="<u4", buffer=padded, strides=(1,))
    b1 = np.frombuffer(padded, dtype=np.uint8)
    out = np.empty(lens.shape[0], dtype=np.uint64)

    sel = np.flatnonzero((lens >= 1) & (lens <= 3))
    if sel.size:
        p, n = starts[sel], lens[sel]
        combined = (
            b1[p + n - 1].astype(np.uint64)
            | (n.astype(np.uint64) << np.uint64(8))
            | (b1[p].astype(np.uint64) << np.uint64(16))
            | (b1[p + (n >> 1)].astype(np.uint64) << np.uint64(24))
        )
        combined ^= np.uint64(((_le(0, 4) ^ _le(4, 4)) + seed) & _MASK64)
        out[sel] = _avalanche_xxh64(combined)

    sel = np.flatnonzero((lens >= 4) & (lens <= 8))
    if sel.size:
        p, n = starts[sel], lens[sel]
        low32 = seed & 0xFFFFFFFF
        modified = seed ^ (int.from_bytes(low32.to_bytes(4, "little"), "big") << 32)
        v = v4[p + n - 4].astype(np.uint64) | (v4[p].astype(np.uint64) << np.uint64(32))
        v ^= np.uint64(((_le(8, 8) ^ _le(16, 8)) - modified) & _MASK64)
        v ^= _rotl(v, 49) ^ _rotl(v, 24)
        v *= _PRIME_MX2
        v ^= (v >> np.uint64(35)) + n.astype(np.uint64)
        v *= _PRIME_MX2
        v ^= v >> np.uint64(28)
        out[sel] = v

    sel = np.flatnonzero((lens >= 9) & (lens <= 16))
    if sel.size:
        p, n = starts[sel], lens[sel]
        low = v8[p] ^ np.uint64(((_le(24, 8) ^ _le(32, 8)) + seed) & _MASK64)
        high = v8[p + n - 8] ^ np.uint64(((_le(40, 8) ^ _le(48, 8)) - seed) & _MASK64)
        acc = n.astype(np.uint64) + low.byteswap() + high + _mul128_fold64(low, high)
        acc ^= acc >> np.uint64(37)
        acc *= _PRIME_MX1
        acc ^= acc >> np.uint64(32)
        out[sel] = acc

    for i in np.flatnonzero((lens < 1) | (lens > 16)).tolist():
        s = int(starts[i])
        out[i] = xxhash.xxh3_64_intdigest(buf[s : s + int(lens[i])], seed)
    return out


def fmix64(x: np.ndarray) -> np.ndarray:
    """MurmurHash3 64-bit finalizer (a bijection with full avalanche), element-wise, in place."""
    x ^= x >> _U64(33)
    x *= _U64(0xFF51AFD7ED558CCD)
    x ^= x >> _U64(33)
    x *= _U64(0xC4CEB9FE1A85EC53)
    x ^= x >> _U64(33)
    return x


def _splitmix64(state: int) -> tuple[int, int]:
    """One splitmix64 step on Python ints: (new_state, output). Used to derive fixed constants."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def _constants(seed: int, n: int, odd: bool = True) -> np.ndarray:
    """n deterministic 64-bit constants derived from seed (odd ones are invertible multipliers)."""
    out = []
    state = seed & _MASK64
    for _ in range(n):
        state, z = _splitmix64(state)
        out.append(z | 1 if odd else z)
    return np.array(out, dtype=np.uint64)


class Shingler:
    """Text (or token list) -> 64-bit hashes of its k-shingles.

    Tokens are hashed with XXH3_64 (seed), computed in numpy over the whole batch. Shingle i of a
    document is the token window [i, i+k). A document with 1..k-1 tokens has a single shorter
    shingle (all its tokens); an empty document has none. Hashes depend only on (k, seed) and the
    token sequence, never on the machine or run.
    """

    def __init__(self, k: int = DEFAULT_K, seed: int = DEFAULT_SEED) -> None:
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise ValueError(f"shingle size k must be a positive integer, got {k!r}")
        if not isinstance(seed, int) or not 0 <= seed <= _MASK64:
            raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        self.k = k
        self.seed = seed
        self._mul = _constants(seed ^ 0x5348494E474C45, k)  # position multipliers
        # Width tag: a short shingle of w tokens never equals a full one by construction.
        self._width_tag = _constants(seed ^ 0x5749445448, k + 1, odd=False)

    # -- tokens -> token hashes ---------------------------------------------------------------
    def token_hashes_batch(self, docs: Sequence[str | Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """Token hashes of many documents, concatenated: (flat uint64 hashes, per-doc token counts)."""
        if isinstance(docs, str):
            raise TypeError("expected a list of documents, got one str (use a one-element list)")
        n = len(docs)
        parts: list[bytes] = [b""] * n
        list_docs: list[int] = []
        wide: list[int] = []  # non-ASCII texts, converted together
        for i, doc in enumerate(docs):
            if isinstance(doc, str):
                if doc.isascii():
                    parts[i] = doc.lower().encode("ascii")  # NFKC: identity, casefold: lower
                else:
                    wide.append(i)
            elif isinstance(doc, (bytes, bytearray)):
                raise TypeError("pass text as str (decoded), not bytes")
            elif isinstance(doc, Sequence):
                list_docs.append(i)
            else:
                raise TypeError(f"expected a text (str) or a token list, got {type(doc).__name__}")
        if wide:
            for i, b in zip(wide, _texts_bytes_nonascii([docs[i] for i in wide]), strict=True):  # type: ignore[misc]
                parts[i] = b
        buf = b" ".join(parts).translate(_BYTES_TABLE)
        starts, ends = _token_spans(buf)
        part_lens = np.fromiter(map(len, parts), dtype=np.int64, count=n)
        doc_starts = np.cumsum(part_lens + 1) - (part_lens + 1)
        first_tok = np.searchsorted(starts, doc_starts)
        lens = np.diff(np.append(first_tok, starts.shape[0])).astype(np.int64)
        flat = xxh3_spans(buf, starts, ends - starts, self.seed)
        if list_docs:  # token lists: tokens kept whole, spliced in at their document's place
            pieces, counts = [], []
            for i in list_docs:
                toks = _tokens_from_list(docs[i])
                tl = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks))
                tb = b"".join(toks)
                pieces.append(xxh3_spans(tb, np.cumsum(tl) - tl, tl, self.seed))
                counts.append(len(toks))
            offs = np.cumsum(lens) - lens
            flat = np.insert(flat, np.repeat(offs[list_docs], counts), np.concatenate(pieces))
            lens[list_docs] = counts
        return flat, lens

    # -- token hashes -> shingle hashes ---------------------------------------------------------
    def shingles_from_token_hashes(self, flat: np.ndarray, lens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Shingle hashes of concatenated token hashes: (flat shingle hashes, per-doc shingle counts)."""
        k = self.k
        flat = np.ascontiguousarray(flat, dtype=np.uint64)
        lens = np.asarray(lens, dtype=np.int64)
        n_tok = flat.shape[0]
        if int(lens.sum()) != n_tok:
            raise ValueError("token counts do not add up to the number of token hashes")
        ends = np.cumsum(lens)
        starts = ends - lens
        full = lens >= k
        counts = np.where(full, lens - k + 1, (lens > 0).astype(np.int64))
        if n_tok == 0:
            return np.empty(0, dtype=np.uint64), counts

        # Full windows, over the concatenation padded with k-1 zeros; windows crossing a document
        # end are dropped below.
        padded = np.concatenate([flat, np.zeros(k - 1, dtype=np.uint64)]) if k > 1 else flat
        acc = padded[:n_tok] * self._mul[0]
        for j in range(1, k):
            acc += padded[j : j + n_tok] * self._mul[j]
        acc ^= self._width_tag[k]

        if k == 1:
            keep_full = None
        else:
            doc_end = np.repeat(ends, lens)
            keep_full = (np.arange(n_tok, dtype=np.int64) + k) <= doc_end
        short_docs = np.flatnonzero((~full) & (lens > 0))
        if short_docs.size:
            # Rare: documents with fewer than k tokens get one shingle of all their tokens.
            # Their (single) window start is the doc start; replace its value in place.
            for d in short_docs.tolist():
                s, w = int(starts[d]), int(lens[d])
                val = flat[s : s + w] * self._mul[:w]
                v = _U64(np.bitwise_xor(np.add.reduce(val, dtype=np.uint64), self._width_tag[w]))
                acc[s] = v
            keep_full[starts[short_docs]] = True
        out = acc if keep_full is None else acc[keep_full]
        return fmix64(out), counts

    def hashes_batch(self, docs: Sequence[str | Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """Shingle hashes of many documents: (flat uint64 hashes, per-doc shingle counts)."""
        flat, lens = self.token_hashes_batch(docs)
        return self.shingles_from_token_hashes(flat, lens)

    def hashes(self, doc: str | Sequence[str]) -> np.ndarray:
        """Shingle hashes of one document (text or token list), in shingle order (may repeat)."""
        out, _ = self.hashes_batch([doc])
        return out
