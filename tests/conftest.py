"""Shared pytest fixtures. Solr/Java fixtures: in CI (CI=true) a missing toolchain is a failure,
locally it is a loud skip."""
