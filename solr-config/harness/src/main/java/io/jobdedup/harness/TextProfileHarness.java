package io.jobdedup.harness;

import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.SolrInputField;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.StrUtils;
import org.apache.solr.update.processor.Signature;
import org.apache.solr.update.processor.TextProfileSignature;
import org.noggit.JSONParser;

/**
 * Solr's real TextProfileSignature behind stdin/stdout, for the Python parity tests.
 *
 * <pre>
 * text     each stdin line: {"q": "0.01", "m": "2", "t": "some text"}
 *          prints the lowercase hex of TextProfileSignature(quantRate=q, minTokenLen=m) with t added once.
 * fields   each stdin line: {"q": "0.01", "m": "2", "fields": "title,company", "doc": {...}}
 *          prints what SignatureUpdateProcessorFactory(fields=..., signatureClass=TextProfileSignature)
 *          writes into the signature field; doc values are typed as Solr's JsonLoader types them.
 * order    each stdin line: {"keys": ["k1", "k2", ...]}
 *          puts the keys into a new java.util.HashMap in this order and prints the iteration order as
 *          comma-separated indexes of the first occurrences (HashMap order proof for signatures.textprofile).
 * tables OUT   writes the Java character tables (see writeTables) used by signatures/javachars.py.
 * </pre>
 *
 * An empty stdin line flushes: all answers since the previous flush are printed, one per input line.
 * A line that cannot be handled prints "ERROR message" so answers stay aligned with inputs.
 */
public final class TextProfileHarness {

  private TextProfileHarness() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: TextProfileHarness text|fields|tables OUT");
      System.exit(2);
    }
    switch (args[0]) {
      case "tables":
        writeTables(args[1]);
        return;
      case "text":
      case "fields":
      case "order":
        serve(args[0]);
        return;
      default:
        System.err.println("unknown mode " + args[0]);
        System.exit(2);
    }
  }

  /**
   * For every UTF-16 code unit c (0..65535) one little-endian uint16: Character.toLowerCase(c) when
   * Character.isLetterOrDigit(c), else 0 (a separator). Exactly the two calls TextProfileSignature makes.
   */
  static void writeTables(String out) throws IOException {
    try (DataOutputStream os = new DataOutputStream(new FileOutputStream(out))) {
      for (int c = 0; c <= 0xFFFF; c++) {
        char ch = (char) c;
        int v = Character.isLetterOrDigit(ch) ? Character.toLowerCase(ch) : 0;
        if (Character.isLetterOrDigit(ch) && v == 0) {
          throw new IllegalStateException("letter lowercases to U+0000: " + c);
        }
        os.writeByte(v & 0xFF);
        os.writeByte((v >>> 8) & 0xFF);
      }
    }
    System.out.println(
        "{\"java.version\": \""
            + System.getProperty("java.version")
            + "\", \"java.vendor\": \""
            + System.getProperty("java.vendor")
            + "\"}");
  }

  static void serve(String mode) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
    Writer out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    StringBuilder pending = new StringBuilder();
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) {
        out.write(pending.toString());
        out.flush();
        pending.setLength(0);
        continue;
      }
      try {
        Map<String, Object> req = asMap(parse(line));
        String answer;
        switch (mode) {
          case "fields":
            answer = signFields(req);
            break;
          case "order":
            answer = hashMapOrder(req);
            break;
          default:
            answer = signText(req);
        }
        pending.append(answer).append('\n');
      } catch (RuntimeException e) {
        pending.append("ERROR ").append(String.valueOf(e).replace('\n', ' ')).append('\n');
      }
    }
    out.write(pending.toString());
    out.flush();
  }

  static Signature newSignature(Map<String, Object> req) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    if (req.get("q") != null) params.set("quantRate", String.valueOf(req.get("q")));
    if (req.get("m") != null) params.set("minTokenLen", String.valueOf(req.get("m")));
    Signature sig = new TextProfileSignature();
    sig.init(params);
    return sig;
  }

  static String signText(Map<String, Object> req) {
    Signature sig = newSignature(req);
    sig.add((String) req.get("t"));
    return hex(sig.getSignature());
  }

  /** SignatureUpdateProcessorFactory's loop for one document (fields configured, not a partial update). */
  @SuppressWarnings("unchecked")
  static String signFields(Map<String, Object> req) {
    List<String> sigFields = StrUtils.splitSmart((String) req.get("fields"), ",", true);
    Collections.sort(sigFields);
    SolrInputDocument doc = new SolrInputDocument();
    for (Map.Entry<String, Object> e : asMap(req.get("doc")).entrySet()) {
      doc.addField(e.getKey(), e.getValue());
    }
    Signature sig = newSignature(req);
    for (String field : sigFields) {
      SolrInputField f = doc.getField(field);
      if (f != null) {
        sig.add(field);
        Object o = f.getValue();
        if (o instanceof Collection) {
          for (Object oo : (Collection<Object>) o) {
            sig.add(String.valueOf(oo));
          }
        } else {
          sig.add(String.valueOf(o));
        }
      }
    }
    return hex(sig.getSignature());
  }

  @SuppressWarnings("unchecked")
  static String hashMapOrder(Map<String, Object> req) {
    List<Object> keys = (List<Object>) req.get("keys");
    HashMap<String, Integer> map = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      map.putIfAbsent((String) keys.get(i), i);
    }
    StringBuilder sb = new StringBuilder();
    for (Integer i : map.values()) {
      if (sb.length() > 0) sb.append(',');
      sb.append(i);
    }
    return sb.toString();
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder(b.length * 2);
    for (byte x : b) {
      sb.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }
    return sb.toString();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object o) {
    if (!(o instanceof Map)) throw new IllegalArgumentException("expected a JSON object");
    return (Map<String, Object>) o;
  }

  static Object parse(String json) {
    try {
      JSONParser p = new JSONParser(json);
      return value(p, p.nextEvent());
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** JSON values typed the way Solr's JsonLoader types field values (parseFieldValue). */
  static Object value(JSONParser p, int ev) throws IOException {
    switch (ev) {
      case JSONParser.STRING:
        return p.getString();
      case JSONParser.LONG:
        return p.getLong();
      case JSONParser.NUMBER:
        return p.getDouble();
      case JSONParser.BIGNUMBER:
        return p.getNumberChars().toString();
      case JSONParser.BOOLEAN:
        return p.getBoolean();
      case JSONParser.NULL:
        p.getNull();
        return null;
      case JSONParser.ARRAY_START:
        {
          List<Object> list = new ArrayList<>(2);
          for (int e = p.nextEvent(); e != JSONParser.ARRAY_END; e = p.nextEvent()) {
            list.add(value(p, e));
          }
          return list;
        }
      case JSONParser.OBJECT_START:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          for (int e = p.nextEvent(); e != JSONParser.OBJECT_END; e = p.nextEvent()) {
            String key = p.getString();
            map.put(key, value(p, p.nextEvent()));
          }
          return map;
        }
      default:
        throw new IllegalArgumentException("unexpected JSON event " + JSONParser.getEventString(ev));
    }
  }
}
