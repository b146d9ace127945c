/*
 * jobdedup: the postings configset on another Solr release. Licensed under the Apache License 2.0.
 */
package io.jobdedup.solr.check;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.solr.core.SolrCore;

/**
 * The postings configset against whatever Solr is on the classpath, without a CoreContainer (Maven
 * Central lacks the client modules a Solr 10.0.0 CoreContainer needs): solrconfig.xml and the
 * managed schema parse, the analyzers build and segment CJK text, the plugin links, and
 * TextProfileSignature signs a posting (printed for comparison with `jobdedup sig`). Exits 1 on a
 * failed expectation. Usage: ConfigCheck CONFIGSET_DIR
 */
public final class ConfigCheck {
  private ConfigCheck() {}

  private static int failures = 0;

  private static void expect(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  /**
   * What can be checked without a CoreContainer (when the classpath lacks Solr's client modules):
   * solrconfig.xml and the schema parse, every analyzer builds and segments CJK text, the plugin
   * class links against this Solr and accepts the chain's parameters.
   */
  private static void configOnly(Path instanceDir) throws Exception {
    org.apache.solr.core.SolrConfig config = new org.apache.solr.core.SolrConfig(instanceDir, "solrconfig.xml");
    org.apache.solr.core.SolrResourceLoader loader = config.getResourceLoader();
    expect(config.luceneMatchVersion != null, "solrconfig.xml parsed, luceneMatchVersion " + config.luceneMatchVersion);
    org.apache.solr.schema.IndexSchema schema =
        org.apache.solr.schema.IndexSchemaFactory.buildIndexSchema("managed-schema.xml", config);
    expect(schema.getField("dup_group").hasDocValues(), "schema parsed: " + schema.getFields().size() + " fields");
    String[][] probes = {{"title_zh", "高级软件工程师招聘", "工程师"}, {"title_ja", "東京都のソフトウェアエンジニア募集", "エンジニア"},
        {"title", "Zürich ＥＮＧＩＮＥＥＲ", "zurich"}, {"title_en", "Senior Engineers", "engin"}};
    for (String[] p : probes) {
      java.util.List<String> toks = new java.util.ArrayList<>();
      try (org.apache.lucene.analysis.TokenStream ts = schema.getField(p[0]).getType().getIndexAnalyzer().tokenStream(p[0], p[1])) {
        org.apache.lucene.analysis.tokenattributes.CharTermAttribute t =
            ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
        ts.reset();
        while (ts.incrementToken()) toks.add(t.toString());
        ts.end();
      }
      expect(toks.contains(p[2]), p[0] + " analyzes " + p[1] + " -> " + toks);
    }
    org.apache.solr.common.util.NamedList<Object> args = new org.apache.solr.common.util.NamedList<>();
    args.add("signatureField", "signature");
    args.add("groupField", "dup_group");
    args.add("overwriteDupes", false);
    args.add("fields", "title,description");
    args.add("signatureClass", "solr.processor.TextProfileSignature");
    Object factory = Class.forName("io.jobdedup.solr.PostingSignatureUpdateProcessorFactory")
        .getDeclaredConstructor().newInstance();
    ((org.apache.solr.update.processor.UpdateRequestProcessorFactory) factory).init(args);
    expect(true, "plugin PostingSignatureUpdateProcessorFactory links and initialises");
    org.apache.solr.update.processor.Signature sig = loader.newInstance(
        "solr.processor.TextProfileSignature", org.apache.solr.update.processor.Signature.class);
    sig.init(new org.apache.solr.common.params.ModifiableSolrParams());
    for (String v : new String[] {"description", "Build data pipelines.", "title",
        "Senior Software Engineer (Python)"}) sig.add(v);
    StringBuilder hex = new StringBuilder();
    for (byte b : sig.getSignature()) hex.append(String.format("%02x", b));
    System.out.println("signature a " + hex);
    System.out.println(failures == 0 ? "ALL OK" : failures + " FAILED");
    System.exit(failures == 0 ? 0 : 1);
  }

  public static void main(String[] args) throws Exception {
    System.out.println("Solr " + SolrCore.class.getPackage().getImplementationVersion() + " on Java "
        + System.getProperty("java.version"));
    configOnly(Paths.get(args[0]).toAbsolutePath());
  }
}
