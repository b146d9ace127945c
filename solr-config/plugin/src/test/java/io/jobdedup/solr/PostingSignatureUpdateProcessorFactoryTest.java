package io.jobdedup.solr;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.commons.io.file.PathUtils;
import org.apache.solr.SolrTestCaseJ4;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.update.AddUpdateCommand;
import org.apache.solr.update.processor.DistributedUpdateProcessorFactory;
import org.apache.solr.update.processor.RunUpdateProcessorFactory;
import org.apache.solr.update.processor.SignatureUpdateProcessorFactory;
import org.apache.solr.update.processor.UpdateRequestProcessor;
import org.apache.solr.update.processor.UpdateRequestProcessorChain;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The postings configset's default chain on a real SolrCore (Solr's test framework): the
 * processor's three fixes, each checked against what the stock processor computes.
 */
public class PostingSignatureUpdateProcessorFactoryTest extends SolrTestCaseJ4 {

  @BeforeClass
  public static void beforeClass() throws Exception {
    // a private copy of the real configset: the core must not write into the source tree
    Path home = createTempDir("home");
    Path conf = home.resolve("postings").resolve("conf");
    Files.createDirectories(conf);
    PathUtils.copyDirectory(Paths.get("..", "postings", "conf").toAbsolutePath(), conf);
    assertTrue(Files.exists(conf.resolve("solrconfig.xml")));
    System.setProperty("solr.directoryFactory", "solr.MockFSDirectoryFactory"); // on disk, in a temp dir
    initCore("solrconfig.xml", "managed-schema.xml", home.toString(), "postings");
  }

  @Before
  public void clean() {
    assertU(delQ("*:*"));
    assertU(commit());
  }

  private static String stored(String id, String field) throws Exception {
    return (String) h.getCore().withSearcher(s -> {
      int doc = s.getFirstMatch(new org.apache.lucene.index.Term("id", id));
      assertTrue("no document " + id, doc >= 0);
      String[] values = s.getDocFetcher().doc(doc).getValues(field);
      assertTrue(field + " of " + id + " has " + values.length + " values", values.length <= 1);
      return values.length == 0 ? null : values[0];
    });
  }

  @Test
  public void defaultsGroupToSignature() throws Exception {
    assertU(adoc("id", "a", "title", "Senior Python Engineer", "company", "Acme",
        "description", "Build data pipelines in Python and SQL."));
    assertU(adoc("id", "b", "title", "senior python engineer!", "company", "ACME",
        "description", "Build data pipelines in Python and SQL"));
    assertU(commit());
    String sig = stored("a", "signature");
    assertNotNull(sig);
    assertEquals(32, sig.length());
    assertEquals(sig, stored("b", "signature")); // TextProfileSignature ignores case and punctuation
    assertEquals(sig, stored("a", "dup_group"));
    assertEquals(sig, stored("b", "dup_group"));
  }

  @Test
  public void suppliedGroupWinsAndSuppliedSignatureIsNotDoubled() throws Exception {
    assertU(adoc("id", "a", "title", "Data Engineer", "company", "Acme", "description", "Spark"));
    assertU(adoc("id", "b", "title", "Data Engineer", "company", "Acme", "description", "Spark",
        "dup_group", "group-7", "profile_sig", "p-1", "signature", "stale"));
    assertU(commit());
    String sig = stored("a", "signature");
    assertEquals(sig, stored("b", "signature")); // Solr's value, not "stale", and only one
    assertEquals("group-7", stored("b", "dup_group"));
    assertEquals("p-1", stored("b", "profile_sig"));
  }

  /** One naming of groups: a posting sent without dup_group joins the group of its signature. */
  @Test
  public void straightCopyJoinsTheGroupOfAnExistingPosting() throws Exception {
    // the service names groups by posting id; its posting is searchable
    assertU(adoc("id", "s1", "title", "Night Nurse", "company", "Mercy",
        "description", "Ward four, night shifts, three nights a week", "dup_group", "s1"));
    assertU(commit());
    assertU(adoc("id", "c1", "title", "night nurse", "company", "MERCY",
        "description", "Ward four night shifts three nights a week!"));
    // not searchable yet (no commit): found among the signatures this core signed
    assertU(adoc("id", "s2", "title", "Line Cook", "company", "Diner",
        "description", "Grill and prep work for the lunch service", "dup_group", "s2"));
    assertU(adoc("id", "c2", "title", "Line Cook", "company", "Diner",
        "description", "Grill and prep work for the lunch service"));
    assertU(commit());
    assertEquals(stored("s1", "signature"), stored("c1", "signature"));
    assertEquals("s1", stored("c1", "dup_group"));
    assertEquals("s2", stored("c2", "dup_group"));
    // after a new searcher the recent signatures are forgotten, the searcher still finds the group
    assertU(adoc("id", "c3", "title", "Line Cook", "company", "Diner",
        "description", "Grill and prep work for the lunch service."));
    assertU(commit());
    assertEquals("s2", stored("c3", "dup_group"));
    // two groups share a signature: the smallest is adopted, whatever the order they came in
    assertU(adoc("id", "s0", "title", "Line Cook", "company", "Diner",
        "description", "Grill and prep work for the lunch service", "dup_group", "a-first"));
    assertU(adoc("id", "c4", "title", "Line Cook", "company", "Diner",
        "description", "Grill and prep work for the lunch service"));
    assertU(commit());
    assertEquals("a-first", stored("c4", "dup_group"));
  }

  /** A chain of `factory` (the configset's signature parameters plus `extra` name/value pairs), distributed
   * update and run: the plugin or stock Solr on this core, outside the configset's own chain. */
  private static UpdateRequestProcessorChain chainOf(SignatureUpdateProcessorFactory factory, String... extra) {
    NamedList<Object> args = new NamedList<>();
    args.add("signatureField", "signature");
    args.add("fields", "title,description");  // the configset's signed fields
    args.add("overwriteDupes", false);
    args.add("signatureClass", "solr.processor.TextProfileSignature");
    for (int i = 0; i + 1 < extra.length; i += 2) {
      args.add(extra[i], extra[i + 1]);
    }
    factory.init(args);
    factory.inform(h.getCore());
    return new UpdateRequestProcessorChain(
        List.of(factory, new DistributedUpdateProcessorFactory(), new RunUpdateProcessorFactory()), h.getCore());
  }

  @Test
  public void adoptGroupsFalseKeepsTheSignature() throws Exception {
    UpdateRequestProcessorChain chain = chainOf(new PostingSignatureUpdateProcessorFactory(), "adoptGroups", "false");
    assertU(adoc("id", "s1", "title", "Baker", "company", "Crumb", "description", "Early shifts",
        "dup_group", "s1"));
    assertU(commit());
    addThrough(chain, sdoc("id", "c1", "title", "Baker", "company", "Crumb",
        "description", "Early shifts"));
    assertU(commit());
    assertEquals(stored("s1", "signature"), stored("c1", "dup_group"));
  }

  @Test
  public void aDeletedOrMovedGroupIsNotAdopted() throws Exception {
    assertU(adoc("id", "s1", "title", "Welder", "company", "Forge",
        "description", "MIG and TIG welding on steel frames", "dup_group", "s1"));
    assertU(delI("s1")); // uncommitted add, then its delete: nothing to adopt
    assertU(adoc("id", "c1", "title", "Welder", "company", "Forge",
        "description", "MIG and TIG welding on steel frames"));
    assertU(commit());
    String sig = stored("c1", "signature");
    assertEquals(sig, stored("c1", "dup_group"));
    // the group moves by atomic update (the service's regroup): a later copy joins the new group
    assertU(adoc(sdoc("id", "c1", "dup_group", Map.of("set", "moved"))));
    assertU(adoc("id", "c2", "title", "Welder", "company", "Forge",
        "description", "MIG and TIG welding on steel frames"));
    assertU(commit());
    assertEquals("moved", stored("c2", "dup_group"));
  }

  @Test
  public void atomicUpdateNeverResignsOrRegroups() throws Exception {
    assertU(adoc("id", "a", "title", "Backend Developer", "company", "Initech",
        "description", "Go and Postgres", "seen_count", "1"));
    assertU(adoc("id", "b", "title", "Backend Developer", "company", "Initech",
        "description", "Go and Postgres", "dup_group", "g-b"));
    assertU(commit());
    String sig = stored("a", "signature");
    for (String id : new String[] {"a", "b"}) {
      SolrInputDocument bump = sdoc("id", id,
          "last_seen", Map.of("set", "2024-05-01T00:00:00Z"), "seen_count", Map.of("inc", 1));
      assertU(adoc(bump));
    }
    assertU(commit());
    assertEquals(sig, stored("a", "signature"));
    assertEquals(sig, stored("a", "dup_group"));
    assertEquals("2", stored("a", "seen_count"));
    assertEquals(sig, stored("b", "signature"));
    assertEquals("g-b", stored("b", "dup_group"));
    assertJQ(req("q", "id:b", "fl", "last_seen"), "/response/docs/[0]/last_seen=='2024-05-01T00:00:00Z'");
  }

  @Test
  public void postingWithoutTextIsItsOwnGroup() throws Exception {
    assertU(adoc("id", "x1", "url", "https://example.com/1"));
    assertU(adoc("id", "x2", "url", "https://example.com/2", "title", "  "));
    assertU(commit());
    assertEquals("x1", stored("x1", "dup_group"));
    assertEquals("x2", stored("x2", "dup_group"));
    assertNotNull(stored("x1", "signature"));
  }

  /** Text without a token TextProfileSignature keeps (punctuation, tokens of minTokenLen or fewer
   * characters) signs like no text: the signature of the field names alone, no evidence of anything. */
  @Test
  public void postingWithoutTokensIsItsOwnGroup() throws Exception {
    assertU(adoc("id", "s1", "title", "-", "description", "!!", "dup_group", "s1")); // the service's
    assertU(commit());
    assertU(adoc("id", "t1", "title", "C", "description", "*"));
    assertU(adoc("id", "t2", "title", "!!", "description", "- -"));
    assertU(adoc("id", "t3", "title", "QA", "description", "..."));
    assertU(commit());
    String sig = stored("s1", "signature");
    for (String id : new String[] {"t1", "t2", "t3"}) {
      assertEquals(sig, stored(id, "signature")); // Solr's value, untouched
      assertEquals(id, stored(id, "dup_group"));
    }
    // one token is enough to sign text: those are grouped as before
    assertU(adoc("id", "w1", "title", "C Dev", "description", "-"));
    assertU(adoc("id", "w2", "title", "c dev!", "description", "*"));
    assertU(commit());
    assertEquals(stored("w1", "dup_group"), stored("w2", "dup_group"));
    assertEquals(stored("w1", "signature"), stored("w1", "dup_group"));
  }

  @Test
  public void refusesOverwriteDupes() {
    for (Boolean overwrite : new Boolean[] {null, Boolean.TRUE}) {
      NamedList<Object> args = new NamedList<>();
      args.add("signatureField", "signature");
      args.add("fields", "title");
      if (overwrite != null) args.add("overwriteDupes", overwrite);
      expectThrows(org.apache.solr.common.SolrException.class,
          () -> new PostingSignatureUpdateProcessorFactory().init(args));
    }
  }

  @Test
  public void languageCopiesFollowTheScriptAndSurviveAtomicUpdates() throws Exception {
    assertU(adoc("id", "zh", "title", "高级软件工程师招聘", "lang", "zh-CN"));
    assertU(adoc("id", "ja", "title", "東京都のソフトウェアエンジニア募集"));
    assertU(adoc("id", "en", "title", "Senior Engineers"));
    assertU(adoc("id", "han", "title", "営業部長"));
    assertU(commit());
    for (int round = 0; round < 2; round++) {
      assertQ(req("q", "title_zh:工程师"), "//result[@numFound='1']", "//str[@name='id'][.='zh']");
      assertQ(req("q", "title_ja:エンジニア"), "//result[@numFound='1']", "//str[@name='id'][.='ja']");
      assertQ(req("q", "title_en:engineer"), "//result[@numFound='1']", "//str[@name='id'][.='en']");
      assertQ(req("q", "title_zh:[* TO *] AND title_ja:[* TO *]"), "//result[@numFound='1']",
          "//str[@name='id'][.='han']");
      assertQ(req("q", "id:en AND (title_zh:[* TO *] OR title_ja:[* TO *])"), "//result[@numFound='0']");
      // an atomic update rebuilds the document: the unstored copies must come back; the second
      // one (no commit between) is merged from the transaction log, which holds the copies already
      for (String id : new String[] {"zh", "ja", "en", "han", "zh", "ja", "en", "han"}) {
        assertU(adoc(sdoc("id", id, "seen_count", Map.of("inc", 1))));
      }
      assertU(commit());
    }
  }

  /** Why the plugin exists: Solr's own factory, same parameters, same core, falls into both traps. */
  @Test
  public void stockProcessorFallsIntoBothTrapsOnThisSolr() throws Exception {
    UpdateRequestProcessorChain chain = chainOf(new SignatureUpdateProcessorFactory());

    assertU(adoc("id", "a", "title", "QA Engineer", "company", "Hooli", "description", "Test automation"));
    assertU(commit());
    String sig = stored("a", "signature");

    // trap 1: a partial update is signed over empty input and that signature is written
    addThrough(chain, sdoc("id", "a", "last_seen", Map.of("set", "2024-05-01T00:00:00Z")));
    assertU(commit());
    assertNotEquals("stock 9.x no longer re-signs atomic updates: revisit the plugin",
        sig, stored("a", "signature"));

    // trap 2: a posting that carries a signature gets a second value (rejected: single-valued)
    SolrException e = expectThrows(SolrException.class, () -> addThrough(chain,
        sdoc("id", "b", "title", "QA Engineer", "company", "Hooli", "signature", "x")));
    assertTrue(e.getMessage(), e.getMessage().contains("multiple values"));
  }

  private static void addThrough(UpdateRequestProcessorChain chain, SolrInputDocument doc)
      throws Exception {
    try (SolrQueryRequest req = req()) {
      UpdateRequestProcessor p = chain.createProcessor(req, new SolrQueryResponse());
      AddUpdateCommand cmd = new AddUpdateCommand(req);
      cmd.solrDoc = doc;
      try {
        p.processAdd(cmd);
        p.finish();
      } finally {
        p.close();
      }
    }
  }
}
