# Solr for jobdedup: the official image at the pinned release with the postings configset and jobdedup's
# plugin jar, built here from source with Maven (no host build step). SOLR_MODULES and SOLR_OPTS
# (solr.sharedLib=/opt/jobdedup/lib) are set in docker-compose.yml.
#   docker compose -f docker/docker-compose.yml up -d --build
# Keep the solr tag equal to solr.version in solr-config/pom.xml (tests/test_solr_docker.py checks it).

# --- stage 1: the plugin jar (its tests run in CI: mvn -f solr-config/pom.xml install) ---
FROM maven:3.9.9-eclipse-temurin-17 AS plugin
WORKDIR /build
# the reactor needs every module's pom; only the plugin is built
COPY solr-config/pom.xml solr-config/pom.xml
COPY solr-config/harness/pom.xml solr-config/harness/pom.xml
COPY solr-config/launcher/pom.xml solr-config/launcher/pom.xml
COPY solr-config/plugin/pom.xml solr-config/plugin/pom.xml
COPY solr-config/plugin/src solr-config/plugin/src
RUN mvn -B -q -f solr-config/pom.xml -pl plugin -am package -Dmaven.test.skip=true

# --- stage 2: Solr with the jar and the configset the core is created from ---
FROM solr:9.10.1
COPY --from=plugin /build/solr-config/plugin/target/jobdedup-solr-plugin-0.1.0.jar /opt/jobdedup/lib/
COPY solr-config/postings /opt/jobdedup/postings
