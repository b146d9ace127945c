/*
 * jobdedup Solr plugin. Licensed under the Apache License, Version 2.0.
 */
package io.jobdedup.solr;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRefBuilder;
import org.apache.solr.cloud.CloudDescriptor;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.SolrInputField;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.core.SolrCore;
import org.apache.solr.core.SolrEventListener;
import org.apache.solr.request.LocalSolrQueryRequest;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestHandler;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.search.SolrIndexSearcher;
import org.apache.solr.update.AddUpdateCommand;
import org.apache.solr.update.DeleteUpdateCommand;
import org.apache.solr.update.UpdateLog;
import org.apache.solr.util.RefCounted;
import org.apache.solr.update.processor.AtomicUpdateDocumentMerger;
import org.apache.solr.update.processor.Signature;
import org.apache.solr.update.processor.SignatureUpdateProcessorFactory;
import org.apache.solr.update.processor.UpdateRequestProcessor;

/**
 * Solr's own {@link SignatureUpdateProcessorFactory} (same parameters, same signatures), made safe
 * for a collection that keeps every posting and groups duplicates in {@code dup_group}:
 *
 * <ul>
 *   <li><b>Atomic (partial) updates are not signed.</b> On Solr 9.10.1 the stock processor signs
 *       the empty input of a partial update that touches none of the signed fields and writes that
 *       signature (a plain value in a partial document means "set"), so a {@code last_seen} bump
 *       would overwrite every posting's {@code signature} with the signature of nothing. Here a
 *       partial update skips the signing step and passes through untouched.
 *   <li><b>{@code signature} keeps exactly one value.</b> The stock processor <em>adds</em> its
 *       value, so a posting that already carries a signature (a re-index from a dump, say) would
 *       get two and fail on a single-valued field. Solr's freshly computed value wins: it is a pure
 *       function of the text being indexed, a supplied one may be stale.
 *   <li><b>One naming of groups: a posting sent without {@code dup_group} joins the group of an
 *       existing posting with the same signature</b> (the smallest such {@code dup_group}), else
 *       its group is its signature. The jobdedup service names groups by posting id; without this a
 *       copy of a service-indexed posting sent straight to Solr would show as a second row. The
 *       lookup sees this core's newest searcher plus the signatures this core signed since about the
 *       last two searchers opened (so an uncommitted posting counts); in SolrCloud it is a
 *       distributed search over every shard (groups are routed by {@code dup_group}, so the match
 *       may live on any shard), which sees searchable postings (soft commit). A supplied {@code dup_group} (the service's
 *       decision) is kept as is and never gets a second value. A posting whose signed fields
 *       carry no text, or only text the signature class drops (punctuation, tokens no longer than
 *       TextProfileSignature's {@code minTokenLen}: "-", "!!", "C"), is its own group ({@code
 *       dup_group} = its uniqueKey) and is never adopted into a group: its signature is that of its
 *       signed fields' names alone, the same for every such posting, so unrelated postings would
 *       otherwise collapse into one. The {@code signature} value itself stays Solr's.
 *   <li><b>In SolrCloud with {@code router.field=dup_group}, a group change by atomic update is
 *       refused.</b> The route of such an update is the value it carries, so {@code
 *       {"dup_group":{"set":"g2"}}} would be routed by the text "{set=g2}" and create a partial
 *       copy of the posting on whatever shard that hashes to. A clear 400 instead: move a posting
 *       to another group by deleting it and adding it again (atomic updates carry the current
 *       {@code dup_group} as a plain value).
 * </ul>
 *
 * <p>Solr never writes {@code profile_sig}: what the service supplies is stored as is.
 *
 * <p>Parameters: those of {@link SignatureUpdateProcessorFactory} ({@code signatureField}, {@code
 * fields}, {@code signatureClass}, {@code overwriteDupes}, {@code quantRate}, ...) plus {@code
 * groupField} (default {@code dup_group}) and {@code adoptGroups} (default true; false: a posting
 * without {@code dup_group} always gets its signature, as stock Solr, which in SolrCloud saves the
 * distributed lookup per posting). {@code overwriteDupes} must be false: this processor exists to
 * keep duplicates.
 */
public class PostingSignatureUpdateProcessorFactory extends SignatureUpdateProcessorFactory {

  private String groupField = "dup_group";
  private String uniqueKeyField;
  private final Recent recent = new Recent();
  private boolean adoptGroups = true;
  private SolrParams signatureParams;
  private SolrCore core;

  @Override
  public void init(NamedList<?> args) {
    Object group = args.remove("groupField");
    if (group != null) groupField = group.toString().trim();
    Object adopt = args.remove("adoptGroups");
    if (adopt != null) adoptGroups = Boolean.parseBoolean(adopt.toString().trim());
    if (groupField.isEmpty()) {
      throw new SolrException(ErrorCode.SERVER_ERROR, "groupField must not be empty");
    }
    if (args.get("overwriteDupes") == null) {
      throw new SolrException(
          ErrorCode.SERVER_ERROR,
          "PostingSignatureUpdateProcessorFactory: set overwriteDupes=false explicitly"
              + " (Solr's default, true, deletes every earlier duplicate)");
    }
    signatureParams = args.toSolrParams(); // what the stock processor hands its Signature
    super.init(args);
    if (getOverwriteDupes()) {
      throw new SolrException(
          ErrorCode.SERVER_ERROR,
          "PostingSignatureUpdateProcessorFactory keeps duplicates: overwriteDupes must be false");
    }
  }

  @Override
  public void inform(SolrCore core) {
    super.inform(core);
    IndexSchema schema = core.getLatestSchema();
    for (String name : List.of(getSignatureField(), groupField)) {
      SchemaField f = schema.getFieldOrNull(name);
      if (f == null) {
        throw new SolrException(
            ErrorCode.SERVER_ERROR,
            "PostingSignatureUpdateProcessorFactory: no field '" + name + "' in the schema");
      }
      if (f.multiValued()) {
        throw new SolrException(
            ErrorCode.SERVER_ERROR,
            "PostingSignatureUpdateProcessorFactory: field '" + name + "' must be single-valued");
      }
    }
    SchemaField key = schema.getUniqueKeyField();
    uniqueKeyField = key == null ? null : key.getName();
    this.core = core;
    core.registerNewSearcherListener(recent);
  }

  public String getGroupField() {
    return groupField;
  }

  @Override
  public UpdateRequestProcessor getInstance(
      SolrQueryRequest req, SolrQueryResponse rsp, UpdateRequestProcessor next) {
    UpdateRequestProcessor fixup = new FixupProcessor(next);
    UpdateRequestProcessor stock = super.getInstance(req, rsp, fixup);
    return new SkipAtomicProcessor(stock, next, routedByGroup(req) ? groupField : null);
  }

  private static boolean cloud(SolrCore core) {
    return core.getCoreDescriptor().getCloudDescriptor() != null;
  }

  private static String smaller(String a, String b) {
    if (a == null) return b;
    if (b == null) return a;
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * The group of the postings already carrying {@code signature}: the smallest {@code dup_group}
   * among them (standalone: this core's recent signatures and its newest searcher; SolrCloud: every
   * shard, searchable postings only, as a delete sent through another node never reaches this core's
   * memory); null when there is none.
   */
  String existingGroup(SolrQueryRequest req, String signature) throws IOException {
    SolrCore core = req.getCore();
    if (cloud(core)) return distributedLookup(core, signature);
    String found = recent.get(signature);
    UpdateLog ulog = core.getUpdateHandler().getUpdateLog();
    if (recent.takeStale() && ulog != null) ulog.openRealtimeSearcher(); // a group moved or left
    SchemaField sigField = core.getLatestSchema().getField(getSignatureField());
    BytesRefBuilder term = new BytesRefBuilder();
    sigField.getType().readableToIndexed(signature, term);
    RefCounted<SolrIndexSearcher> ref = core.getRealtimeSearcher();
    try {
      // the term's postings in each segment, the group from docValues: no query, no sort
      for (LeafReaderContext leaf : ref.get().getIndexReader().leaves()) {
        Terms terms = leaf.reader().terms(sigField.getName());
        TermsEnum te = terms == null ? null : terms.iterator();
        if (te == null || !te.seekExact(term.get())) continue;
        Bits live = leaf.reader().getLiveDocs();
        SortedDocValues groups = DocValues.getSorted(leaf.reader(), groupField);
        PostingsEnum docs = te.postings(null, PostingsEnum.NONE);
        for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
          if ((live == null || live.get(d)) && groups.advanceExact(d)) {
            found = smaller(found, groups.lookupOrd(groups.ordValue()).utf8ToString());
          }
        }
      }
    } finally {
      ref.decref();
    }
    return found;
  }

  /** SolrCloud: the smallest dup_group with this signature on any shard (searchable postings). */
  private String distributedLookup(SolrCore core, String signature) {
    SolrRequestHandler select = core.getRequestHandler("/select");
    if (select == null) {
      throw new SolrException(ErrorCode.SERVER_ERROR, "PostingSignatureUpdateProcessorFactory"
          + " needs the /select handler to find a signature's group across shards");
    }
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("q", "*:*");
    p.set("defType", "lucene");
    p.set("fq", "{!term cache=false f=" + getSignatureField() + "}" + signature); // no cache entry per posting
    p.set("fl", groupField);
    p.set("rows", 1);
    p.set("sort", groupField + " asc");
    p.set("distrib", true);
    try (LocalSolrQueryRequest lookup = new LocalSolrQueryRequest(core, p)) {
      SolrQueryResponse rsp = new SolrQueryResponse();
      SolrRequestInfo.setRequestInfo(new SolrRequestInfo(lookup, rsp));
      try {
        select.handleRequest(lookup, rsp);
      } finally {
        SolrRequestInfo.clearRequestInfo();
      }
      if (rsp.getException() != null) {
        throw new SolrException(ErrorCode.SERVICE_UNAVAILABLE,
            "could not look up the group of signature " + signature + ": " + rsp.getException(),
            rsp.getException());
      }
      Object docs = rsp.getValues().get("response");
      if (docs instanceof SolrDocumentList list && !list.isEmpty()) {
        Object g = list.get(0).getFirstValue(groupField);
        return g == null ? null : g.toString();
      }
      return null;
    }
  }

  /**
   * Signature -> smallest group of the postings this core signed (or saw with a supplied group)
   * since about the last two searchers opened: they may not be searchable yet. Forgotten on any
   * delete or atomic group change (a stale group must not be adopted; the next lookup then opens a
   * new realtime searcher once, so the change is seen), bounded in size.
   */
  static final class Recent implements SolrEventListener {
    private static final int MAX = 200_000;
    private volatile ConcurrentHashMap<String, String> current = new ConcurrentHashMap<>();
    private volatile ConcurrentHashMap<String, String> previous = new ConcurrentHashMap<>();
    private final AtomicBoolean stale = new AtomicBoolean();

    /** True once after a delete or a group change: the realtime searcher may be out of date. */
    boolean takeStale() {
      return stale.getAndSet(false);
    }

    void put(String signature, String group) {
      ConcurrentHashMap<String, String> now = current;
      if (now.size() < MAX) now.merge(signature, group, PostingSignatureUpdateProcessorFactory::smaller);
    }

    String get(String signature) {
      return smaller(current.get(signature), previous.get(signature));
    }

    synchronized void clear() {
      stale.set(true);
      previous = new ConcurrentHashMap<>();
      current = new ConcurrentHashMap<>();
    }

    @Override
    public synchronized void newSearcher(SolrIndexSearcher newSearcher, SolrIndexSearcher old) {
      previous = current; // what the new searcher may have missed stays one more round
      current = new ConcurrentHashMap<>();
    }

    @Override
    public void postCommit() {}

    @Override
    public void postSoftCommit() {}
  }

  /** True in SolrCloud when this collection is routed by the group field (router.field). */
  private boolean routedByGroup(SolrQueryRequest req) {
    CloudDescriptor cloud = req.getCore().getCoreDescriptor().getCloudDescriptor();
    if (cloud == null || req.getCoreContainer().getZkController() == null) return false;
    DocCollection coll =
        req.getCoreContainer()
            .getZkController()
            .getClusterState()
            .getCollectionOrNull(cloud.getCollectionName());
    return coll != null && groupField.equals(coll.getRouter().getRouteField(coll));
  }

  private static boolean blank(Object value) {
    return value == null || value.toString().isBlank();
  }

  /**
   * True when the signed fields are known and {@code signature} (Solr's, of {@code doc}) says nothing
   * of its text: none of them carries non-blank text, or the signature equals the one of the same
   * fields with every value empty (TextProfileSignature found no token: punctuation, short tokens).
   * Signed as the stock processor signs (sorted field names; per present field its name, then each
   * value), so it holds for any signature class and its parameters.
   */
  private boolean signsNothing(SolrInputDocument doc, Object signature) {
    List<String> fields = getSigFields();
    if (fields == null || fields.isEmpty()) return false;
    boolean text = false;
    Signature empty = core.getResourceLoader().newInstance(getSignatureClass(), Signature.class);
    empty.init(signatureParams);
    for (String name : fields) {
      SolrInputField f = doc.getField(name);
      if (f == null) continue;
      empty.add(name);
      for (Object v : f.getValues()) {
        if (!blank(v)) text = true;
        empty.add("");
      }
    }
    return !text || (signature != null && signature.toString().equals(hex(empty.getSignature())));
  }

  /** Lowercase hex, as the stock processor writes a signature. */
  private static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return out.toString();
  }

  /** Front of the pair: partial updates bypass the stock signing step. */
  private final class SkipAtomicProcessor extends UpdateRequestProcessor {
    private final UpdateRequestProcessor afterSigning;
    private final String routeField;

    SkipAtomicProcessor(
        UpdateRequestProcessor stock, UpdateRequestProcessor afterSigning, String routeField) {
      super(stock);
      this.afterSigning = afterSigning;
      this.routeField = routeField;
    }

    @Override
    public void processAdd(AddUpdateCommand cmd) throws IOException {
      if (AtomicUpdateDocumentMerger.isAtomicUpdate(cmd)) {
        if (cmd.getSolrInputDocument().getField(groupField) != null) recent.clear();
        if (routeField != null
            && cmd.getSolrInputDocument().getFieldValue(routeField) instanceof Map) {
          throw new SolrException(
              ErrorCode.BAD_REQUEST,
              routeField + " is this collection's route (router.field): an atomic update must carry"
                  + " the posting's current " + routeField + " as a plain value, not an operation;"
                  + " to move posting " + cmd.getPrintableId() + " to another group, delete it and"
                  + " add it again");
        }
        if (afterSigning != null) afterSigning.processAdd(cmd);
      } else {
        super.processAdd(cmd);
      }
    }

    @Override
    public void processDelete(DeleteUpdateCommand cmd) throws IOException {
      recent.clear();
      super.processDelete(cmd);
    }
  }

  /** Runs after the stock signing step, on full documents only. */
  private final class FixupProcessor extends UpdateRequestProcessor {
    FixupProcessor(UpdateRequestProcessor next) {
      super(next);
    }

    @Override
    public void processAdd(AddUpdateCommand cmd) throws IOException {
      SolrInputDocument doc = cmd.getSolrInputDocument();
      SolrInputField sig = doc.getField(getSignatureField());
      Object signature = null;
      if (sig != null) {
        Collection<Object> values = sig.getValues();
        for (Object v : values) signature = v; // the last one is Solr's own
        if (values.size() > 1) sig.setValue(signature);
      }
      SolrInputField group = doc.getField(groupField);
      boolean supplied = group != null && !blank(group.getFirstValue());
      boolean text = uniqueKeyField == null || !signsNothing(doc, signature);
      if (!supplied) {
        Object fallback = signature;
        if (!text) {
          fallback = doc.getFieldValue(uniqueKeyField);
        } else if (signature != null && adoptGroups) {
          String existing = existingGroup(cmd.getReq(), signature.toString());
          if (existing != null) fallback = existing;
        }
        if (fallback != null) doc.setField(groupField, fallback.toString());
      }
      Object decided = doc.getFieldValue(groupField);
      if (text && signature != null && decided != null && !cloud(cmd.getReq().getCore())) {
        recent.put(signature.toString(), decided.toString());
      }
      super.processAdd(cmd);
    }
  }
}
