"""jobdedup signatures: pure computation, no I/O.

normalize -> tokenize -> profile / MinHash / decide. Nothing here imports `service`.
"""

from signatures.version import SIG_VERSION

__all__ = ["SIG_VERSION"]
