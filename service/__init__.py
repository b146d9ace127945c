"""jobdedup service: everything that talks (Solr client, ingest pipeline, HTTP app, CLI)."""
