/*
 * jobdedup Solr plugin. Licensed under the Apache License, Version 2.0.
 */
package io.jobdedup.solr;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.solr.cloud.CloudDescriptor;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.SolrInputField;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.core.SolrCore;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.update.AddUpdateCommand;
import org.apache.solr.update.processor.AtomicUpdateDocumentMerger;
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
 *   <li><b>{@code dup_group} defaults to the signature; a supplied value wins.</b> The jobdedup
 *       service decides groups before indexing; its {@code dup_group} is kept as is and never gets
 *       a second value. A posting none of whose signed fields carries text is its own group
 *       ({@code dup_group} = its uniqueKey): otherwise every empty posting would share the
 *       signature of "nothing" and collapse into one.
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
 * groupField} (default {@code dup_group}). {@code overwriteDupes} must be false: this processor
 * exists to keep duplicates.
 */
public class PostingSignatureUpdateProcessorFactory extends SignatureUpdateProcessorFactory {

  private String groupField = "dup_group";
  private String uniqueKeyField;

  @Override
  public void init(NamedList<?> args) {
    Object group = args.remove("groupField");
    if (group != null) groupField = group.toString().trim();
    if (groupField.isEmpty()) {
      throw new SolrException(ErrorCode.SERVER_ERROR, "groupField must not be empty");
    }
    if (args.get("overwriteDupes") == null) {
      throw new SolrException(
          ErrorCode.SERVER_ERROR,
          "PostingSignatureUpdateProcessorFactory: set overwriteDupes=false explicitly"
              + " (Solr's default, true, deletes every earlier duplicate)");
    }
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

  /** True when the signed fields are known and none of them carries any non-blank text. */
  private boolean noSourceText(SolrInputDocument doc) {
    List<String> fields = getSigFields();
    if (fields == null || fields.isEmpty()) return false;
    for (String name : fields) {
      SolrInputField f = doc.getField(name);
      if (f == null) continue;
      for (Object v : f.getValues()) {
        if (!blank(v)) return false;
      }
    }
    return true;
  }

  /** Front of the pair: partial updates bypass the stock signing step. */
  private static final class SkipAtomicProcessor extends UpdateRequestProcessor {
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
      if (!supplied) {
        Object fallback = signature;
        if (uniqueKeyField != null && noSourceText(doc)) {
          fallback = doc.getFieldValue(uniqueKeyField);
        }
        if (fallback != null) doc.setField(groupField, fallback.toString());
      }
      super.processAdd(cmd);
    }
  }
}
