"""The signature version: one string that changes whenever any stored signature could change.

Anything that alters profile signatures, sketches or band keys (algorithm, parameters, tokenizer
or dictionary versions) must bump SIG_VERSION, so `jobdedup recompute` knows what is stale.
"""

SIG_VERSION = "1"
