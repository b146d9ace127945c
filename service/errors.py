"""User-facing errors: the CLI prints them as one line and exits non-zero, the API maps them to 4xx."""


class UserError(Exception):
    """Bad input or a bad invocation; the message is shown to the user as is."""

    exit_code = 2


class SolrUnavailable(Exception):
    """Solr could not be reached or timed out; callers may retry later. `status`: the HTTP status Solr
    answered (5xx, 429), None when it did not answer."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status
