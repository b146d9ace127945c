package io.jobdedup.solr;

import static io.jobdedup.solr.ScriptCopyFieldUpdateProcessorFactory.scripts;
import static io.jobdedup.solr.ScriptCopyFieldUpdateProcessorFactory.targets;

import java.util.List;
import org.junit.Assert;
import org.junit.Test;

/** Which language fields a text is copied to (pure; the chain itself is tested on a core). */
public class ScriptCopyFieldUpdateProcessorFactoryTest {

  private static List<String> t(String text, String lang) {
    return targets(scripts(text), lang);
  }

  @Test
  public void scriptDecides() {
    Assert.assertEquals(List.of("en"), t("Senior Engineer, Berlin", ""));
    Assert.assertEquals(List.of("en"), t("ｐｙｔｈｏｎ ＥＮＧＩＮＥＥＲ", "")); // full-width Latin
    Assert.assertEquals(List.of("en"), t("Zürich straße", "ja"));
    Assert.assertEquals(List.of("ja"), t("東京都のソフトウェアエンジニア募集", ""));
    Assert.assertEquals(List.of("ja"), t("ﾃﾞｰﾀ", "")); // half-width katakana
    Assert.assertEquals(List.of("en", "zh"), t("Python 工程师", "zh"));
    Assert.assertEquals(List.of(), t("12345 -- !!", ""));
    Assert.assertEquals(List.of(), t("", ""));
  }

  @Test
  public void hanWithoutKanaGoesWhereLangSays() {
    Assert.assertEquals(List.of("ja", "zh"), t("高级软件工程师", ""));
    Assert.assertEquals(List.of("zh"), t("高级软件工程师", "zh"));
    Assert.assertEquals(List.of("ja"), t("営業部長", "ja"));
    Assert.assertEquals(List.of("ja", "zh"), t("\uD840\uDC00", "")); // U+20000, a supplementary ideograph
    Assert.assertEquals(List.of("ja", "zh"), t("日本語です", "zh")); // kana, but lang says zh: both
  }
}
