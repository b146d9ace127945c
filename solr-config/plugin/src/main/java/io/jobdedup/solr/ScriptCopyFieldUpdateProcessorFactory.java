/*
 * jobdedup Solr plugin. Licensed under the Apache License, Version 2.0.
 */
package io.jobdedup.solr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.SolrInputField;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.common.util.StrUtils;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.update.AddUpdateCommand;
import org.apache.solr.update.processor.UpdateRequestProcessor;
import org.apache.solr.update.processor.UpdateRequestProcessorFactory;

/**
 * A copyField that looks at the script of the text: copies each source field into {@code
 * <source>_en} when it has Latin letters, {@code <source>_ja} when it has kana, {@code
 * <source>_zh} when it has Han ideographs without kana. Han-only text goes to both _zh and _ja
 * unless the posting's {@code langField} says zh or ja. Kuromoji and smartcn are the most expensive
 * analyzers of the schema; feeding them only text they can segment makes indexing through the chain
 * about twice as fast as three unconditional copyFields.
 *
 * <p>Place it after {@code DistributedUpdateProcessorFactory}: there an atomic update arrives as
 * the merged, full document, so the (unstored) copies are rebuilt from the stored sources. Existing
 * copies are replaced, never doubled: a document merged from the transaction log (an update before
 * the last commit) already carries them.
 *
 * <pre>
 * &lt;processor class="io.jobdedup.solr.ScriptCopyFieldUpdateProcessorFactory"&gt;
 *   &lt;str name="source"&gt;title,description&lt;/str&gt;
 *   &lt;str name="langField"&gt;lang&lt;/str&gt;   (optional)
 * &lt;/processor&gt;
 * </pre>
 */
public class ScriptCopyFieldUpdateProcessorFactory extends UpdateRequestProcessorFactory {

  static final int S_LATIN = 1;
  static final int S_KANA = 2;
  static final int S_HAN = 4;
  private static final String[] SUFFIXES = {"en", "ja", "zh"};

  private List<String> sources = new ArrayList<>();
  private String langField;

  @Override
  public void init(NamedList<?> args) {
    Object src = args.remove("source");
    Object lang = args.remove("langField");
    if (src == null) {
      throw new SolrException(ErrorCode.SERVER_ERROR, "ScriptCopyFieldUpdateProcessorFactory needs source");
    }
    sources = new ArrayList<>(StrUtils.splitSmart(src.toString(), ",", true));
    sources.removeIf(String::isEmpty);
    langField = lang == null ? null : lang.toString().trim();
    if (args.size() > 0) {
      throw new SolrException(
          ErrorCode.SERVER_ERROR,
          "Unexpected init param(s) for ScriptCopyFieldUpdateProcessorFactory: " + args);
    }
  }

  /** Bit set of S_LATIN / S_KANA / S_HAN letters present in {@code text}. */
  static int scripts(CharSequence text) {
    int found = 0;
    for (int i = 0; i < text.length() && found != (S_LATIN | S_KANA | S_HAN); ) {
      int cp = Character.codePointAt(text, i);
      i += Character.charCount(cp);
      if (cp < 0x80) {
        if ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') found |= S_LATIN;
        continue;
      }
      switch (Character.UnicodeScript.of(cp)) {
        case LATIN -> found |= Character.isLetter(cp) ? S_LATIN : 0;
        case HIRAGANA, KATAKANA -> found |= S_KANA;
        case HAN -> found |= S_HAN;
        default -> { }
      }
    }
    return found;
  }

  /** Language suffixes a text with these scripts is copied to, given the posting's lang ("" if none). */
  static List<String> targets(int scripts, String lang) {
    List<String> out = new ArrayList<>(3);
    if ((scripts & S_LATIN) != 0) out.add("en");
    boolean kana = (scripts & S_KANA) != 0;
    boolean han = (scripts & S_HAN) != 0;
    if (kana || (han && !lang.equals("zh"))) out.add("ja");
    if (han && (lang.equals("zh") || (!kana && !lang.equals("ja")))) out.add("zh");
    return out;
  }

  @Override
  public UpdateRequestProcessor getInstance(
      SolrQueryRequest req, SolrQueryResponse rsp, UpdateRequestProcessor next) {
    return new UpdateRequestProcessor(next) {
      @Override
      public void processAdd(AddUpdateCommand cmd) throws IOException {
        SolrInputDocument doc = cmd.getSolrInputDocument();
        String lang = "";
        if (langField != null && doc.getFieldValue(langField) instanceof CharSequence l) {
          lang = l.toString().trim().toLowerCase(Locale.ROOT);
          if (lang.length() > 2) lang = lang.substring(0, 2); // zh-CN, ja_JP
        }
        for (String source : sources) {
          // idempotent: an atomic update merged from the transaction log already carries the copies
          for (String suffix : SUFFIXES) doc.removeField(source + "_" + suffix);
          SolrInputField f = doc.getField(source);
          if (f == null) continue;
          for (Object v : f.getValues()) {
            if (!(v instanceof CharSequence text)) continue; // an atomic operation: not ours to copy
            for (String suffix : targets(scripts(text), lang)) {
              doc.addField(source + "_" + suffix, text.toString());
            }
          }
        }
        super.processAdd(cmd);
      }
    };
  }
}
