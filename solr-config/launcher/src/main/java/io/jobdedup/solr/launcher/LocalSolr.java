/*
 * jobdedup local-solr launcher. Licensed under the Apache License, Version 2.0.
 */
package io.jobdedup.solr.launcher;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A real Solr on 127.0.0.1 for tests, demos and benchmarks: JettySolrRunner with one core
 * "postings", or (--cloud N) a MiniSolrCloudCluster of N nodes with an embedded ZooKeeper and a
 * 2-shard collection "postings" routed by dup_group. Writes the base URL to HOME/local-solr.url
 * once Solr answers, then runs until killed (SIGTERM stops Solr cleanly).
 */
public final class LocalSolr {

  private LocalSolr() {}

  public static void main(String[] args) throws Exception {
    Path home = Paths.get(".local-solr");
    Path configset = null;
    int port = 8983;
    int cloudNodes = 0;
    int shards = 2;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--home" -> home = Paths.get(need(a, v));
        case "--configset" -> configset = Paths.get(need(a, v));
        case "--port" -> port = Integer.parseInt(need(a, v));
        case "--cloud" -> cloudNodes = Integer.parseInt(need(a, v));
        case "--shards" -> shards = Integer.parseInt(need(a, v));
        default -> throw new IllegalArgumentException("unknown argument: " + a);
      }
      i++;
    }
    if (configset == null || !Files.isRegularFile(configset.resolve("conf/solrconfig.xml"))) {
      throw new IllegalArgumentException("--configset DIR must hold conf/solrconfig.xml: " + configset);
    }
    home = home.toAbsolutePath();
    Files.createDirectories(home);
    Path urlFile = home.resolve("local-solr.url");
    Files.deleteIfExists(urlFile);

    long t0 = System.nanoTime();
    String url;
    Runnable stop;
    if (cloudNodes > 0) {
      Path base = home.resolve("cloud");
      deleteTree(base); // ZooKeeper state is fresh on every start: so is the index
      MiniSolrCloudCluster cluster =
          new MiniSolrCloudCluster.Builder(cloudNodes, base)
              .addConfig("postings", configset.resolve("conf"))
              .withJettyConfig(b -> b.setContext("/solr"))
              .build();
      // router.field=dup_group: a group's postings all live on one shard, so collapse is exact
      CollectionAdminRequest.createCollection("postings", "postings", shards, 1)
          .setRouterField("dup_group")
          .process(cluster.getSolrClient());
      cluster.waitForActiveCollection("postings", shards, shards);
      url = cluster.getJettySolrRunner(0).getBaseUrl().toString();
      stop = () -> quietly(cluster::shutdown);
    } else {
      Path solrHome = home.resolve("solr");
      Path core = solrHome.resolve("postings");
      Files.createDirectories(core);
      Files.writeString(solrHome.resolve("solr.xml"), "<solr/>\n", StandardCharsets.UTF_8);
      Files.writeString(core.resolve("core.properties"), "name=postings\n", StandardCharsets.UTF_8);
      // the configset as it is in the source tree now (the index under data/ is kept)
      deleteTree(core.resolve("conf"));
      copyTree(configset.resolve("conf"), core.resolve("conf"));
      JettyConfig config = JettyConfig.builder().setPort(port).setContext("/solr").build();
      JettySolrRunner jetty = new JettySolrRunner(solrHome.toString(), new Properties(), config);
      jetty.start();
      if (jetty.getCoreContainer().getCore("postings") == null) {
        String why = String.valueOf(jetty.getCoreContainer().getCoreInitFailures().get("postings"));
        jetty.stop();
        throw new IllegalStateException("core postings failed to load: " + why);
      }
      jetty.getCoreContainer().getCore("postings").close();
      url = jetty.getBaseUrl().toString();
      stop = () -> quietly(jetty::stop);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stop.run();
                  stopped.countDown();
                }));
    Path tmp = home.resolve("local-solr.url.tmp");
    Files.writeString(tmp, url + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, urlFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    System.err.printf("local-solr: %s up in %.1f s%n", url, (System.nanoTime() - t0) / 1e9);
    stopped.await();
  }

  private interface Action {
    void run() throws Exception;
  }

  private static void quietly(Action action) {
    try {
      action.run();
    } catch (Exception e) {
      System.err.println("local-solr: error while stopping: " + e);
    }
  }

  private static String need(String flag, String value) {
    if (value == null) throw new IllegalArgumentException(flag + " needs a value");
    return value;
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(dest);
        else Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void deleteTree(Path dir) throws Exception {
    if (!Files.exists(dir)) return;
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
