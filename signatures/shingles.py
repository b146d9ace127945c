"""Shingles over normalized tokens, as 64-bit hashes: the input of MinHash.

Text is normalized (NFKC, casefold) and cut into tokens: runs of word characters (letters, digits,
marks, underscore) for space-delimited scripts, one token per character for Han and kana, so a
k-shingle over Chinese/Japanese text is a character k-gram. Tokens are hashed with XXH64 (fixed seed;
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
# is one word character (itself or another) or only non-word characters (-> space). -1: anything
# else (expansions like "ß" -> "ss", characters that compose with neighbours); -2: not built yet.
# Filled lazily in blocks of 256 code points.
_CP_MAP = np.full(0x110000, -2, dtype=np.int32)


def _build_cp_block(block: int) -> None:
    vals = np.empty(256, dtype=np.int32)
    for i in range(256):
        ch = chr(block * 256 + i)
        val = _RAW_TABLE[ord(ch)]
        core = val.strip(" ")
        if val == "\x00":
            vals[i] = -1
        elif core == "":
            vals[i] = 0x20
        elif len(val) == 1 or (len(core) == 1 and val == f" {core} " and is_cjk_char(core)):
            vals[i] = ord(core)  # CJK characters get their spaces back in _text_bytes
        else:
            vals[i] = -1
    _CP_MAP[block * 256 : block * 256 + 256] = vals


def _text_bytes(text: str) -> bytes:
    """Normalized text as UTF-8 in which every non-word character is a space (ASCII non-word
    characters are blanked later, in one bytes.translate over the whole batch)."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    if text.isascii():
        return text.lower().encode("ascii")  # NFKC is the identity, casefold == lower on ASCII
    # Fast path: map code points through a table in numpy (most characters map one-to-one).
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    mapped = _CP_MAP[cps]
    if (mapped == -2).any():
        for block in np.unique(cps[mapped == -2] >> 8).tolist():
            _build_cp_block(block)
        mapped = _CP_MAP[cps]
    if not (mapped < 0).any():
        cjk = _IS_CJK[mapped]  # mapped values are spaces or word characters
        if cjk.any():  # pad every Han/kana character with spaces
            c = cjk.astype(np.int64)
            padded = np.full(mapped.shape[0] + 2 * int(c.sum()), 0x20, dtype=np.int32)
            padded[np.arange(mapped.shape[0]) + 2 * np.cumsum(c) - c] = mapped
            mapped = padded
        return mapped.astype("<u4").tobytes().decode("utf-32-le").encode("utf-8")
    out = text.translate(_RAW_TABLE)
    if "\x00" in out:
        out = unicodedata.normalize("NFKC", text).casefold().translate(_NORM_TABLE)
    return out.encode("utf-8", "surrogatepass")


def _token_spans(buf: bytes) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the maximal runs of non-space bytes of a buffer, vectorized."""
    word = np.frombuffer(buf, dtype=np.uint8) != 0x20
    edges = np.diff(word.view(np.int8), prepend=np.int8(0), append=np.int8(0))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


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


# -- XXH64, vectorized over many short byte spans ------------------------------------------------------
_P1 = np.uint64(0x9E3779B185EBCA87)
_P2 = np.uint64(0xC2B2AE3D27D4EB4F)
_P3 = np.uint64(0x165667B19E3779F9)
_P4 = np.uint64(0x85EBCA77C2B2AE63)
_P5 = 0x27D4EB2F165667C5


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


def _mix_lane(h: np.ndarray, k: np.ndarray, rot: int, mul: np.uint64, add: np.uint64 | None) -> np.ndarray:
    """One XXH64 input step: h = rotl(h ^ k, rot) * mul (+ add)."""
    h ^= k
    h = _rotl(h, rot)
    h *= mul
    if add is not None:
        h += add
    return h


def xxh64_spans(buf: bytes, starts: np.ndarray, lens: np.ndarray, seed: int) -> np.ndarray:
    """XXH64(buf[s:s+l], seed) for every span, bit-identical to xxhash.xxh64_intdigest.

    Spans shorter than 32 bytes (nearly all tokens) are hashed in numpy, following the XXH64
    specification's short-input path; longer spans go through the xxhash library one by one.
    """
    starts = np.asarray(starts, dtype=np.int64)
    lens = np.asarray(lens, dtype=np.int64)
    padded = buf + bytes(8)
    npos = len(buf) + 1
    v8 = np.ndarray((npos,), dtype="<u8", buffer=padded, strides=(1,))
    v4 = np.ndarray((npos,), dtype="<u4", buffer=padded, strides=(1,))
    b1 = np.frombuffer(padded, dtype=np.uint8)
    out = np.empty(lens.shape[0], dtype=np.uint64)
    # Group spans by length: within a group every span takes the same steps, on contiguous arrays
    # (uint8 keys: numpy sorts them with a radix sort).
    short = np.flatnonzero(lens < 32)
    order = short[np.argsort(lens[short].astype(np.uint8), kind="stable")]
    bounds = np.searchsorted(lens[order], np.arange(33))
    base = (seed + _P5) & _MASK64
    p5 = np.uint64(_P5)
    for length in range(32):
        grp = order[bounds[length] : bounds[length + 1]]
        if not grp.size:
            continue
        pos = starts[grp]
        h = np.full(grp.size, np.uint64((base + length) & _MASK64))
        off = 0
        while length - off >= 8:
            k1 = _rotl(v8[pos + off] * _P2, 31)
            k1 *= _P1
            h = _mix_lane(h, k1, 27, _P1, _P4)
            off += 8
        if length - off >= 4:
            h = _mix_lane(h, v4[pos + off].astype(np.uint64) * _P1, 23, _P2, _P3)
            off += 4
        while off < length:
            h = _mix_lane(h, b1[pos + off].astype(np.uint64) * p5, 11, _P1, None)
            off += 1
        out[grp] = h
    h = out
    h ^= h >> np.uint64(33)
    h *= _P2
    h ^= h >> np.uint64(29)
    h *= _P3
    h ^= h >> np.uint64(32)
    for i in np.flatnonzero(lens >= 32).tolist():
        s = int(starts[i])
        h[i] = xxhash.xxh64_intdigest(buf[s : s + int(lens[i])], seed)
    return h


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

    Tokens are hashed with XXH64 (seed), computed in numpy over the whole batch. Shingle i of a
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
        parts: list[bytes] = []
        list_docs: list[int] = []
        for i, doc in enumerate(docs):
            if isinstance(doc, str):
                parts.append(_text_bytes(doc))
            elif isinstance(doc, (bytes, bytearray)):
                raise TypeError("pass text as str (decoded), not bytes")
            elif isinstance(doc, Sequence):
                parts.append(b"")
                list_docs.append(i)
            else:
                raise TypeError(f"expected a text (str) or a token list, got {type(doc).__name__}")
        buf = b" ".join(parts).translate(_BYTES_TABLE)
        starts, ends = _token_spans(buf)
        part_lens = np.fromiter(map(len, parts), dtype=np.int64, count=n)
        doc_starts = np.cumsum(part_lens + 1) - (part_lens + 1)
        first_tok = np.searchsorted(starts, doc_starts)
        lens = np.diff(np.append(first_tok, starts.shape[0])).astype(np.int64)
        flat = xxh64_spans(buf, starts, ends - starts, self.seed)
        if list_docs:  # token lists: tokens kept whole, spliced in at their document's place
            pieces, counts = [], []
            for i in list_docs:
                toks = _tokens_from_list(docs[i])
                tl = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks))
                tb = b"".join(toks)
                pieces.append(xxh64_spans(tb, np.cumsum(tl) - tl, tl, self.seed))
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
