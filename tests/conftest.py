"""Shared pytest fixtures. Solr/Java fixtures: in CI (CI=true) a missing toolchain is a failure,
locally it is a loud skip."""

from solr_fixture import clean_solr, solr_cloud_url, solr_url  # noqa: E402,F401  (real local Solr)
