"""User-facing errors: the CLI prints them as one line and exits non-zero, the API maps them to 4xx."""


class UserError(Exception):
    """Bad input or a bad invocation; the message is shown to the user as is."""

    exit_code = 2


class SolrUnavailable(Exception):
    """Solr could not be reached or timed out; callers may retry later."""
