package dev.agentdesk.transcripts.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Lone surrogates become U+FFFD; everything else, pairs included, is left exactly as it was. */
class SurrogatesTest {

  @Property
  void repairedTextSurvivesUtf8AndOnlyLoneSurrogatesChange(@ForAll String s) {
    String fixed = Surrogates.repair(s);
    assertThat(new String(fixed.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(fixed);
    assertThat(fixed).hasSameSizeAs(s);
    for (int i = 0; i < s.length(); i++) {
      if (fixed.charAt(i) != s.charAt(i)) {
        assertThat(fixed.charAt(i)).isEqualTo('\uFFFD');
        assertThat(Character.isSurrogate(s.charAt(i))).isTrue();
      }
    }
    if (new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s)) {
      assertThat(fixed).isSameAs(s);
    }
  }

  @Example
  void onlyLinesWithASurrogateEscapeAreWalked() {
    byte[] yes = "{\"t\":\"a \\uD83D b\"}".getBytes(StandardCharsets.UTF_8);
    byte[] lower = "{\"t\":\"a \\udfff b\"}".getBytes(StandardCharsets.UTF_8);
    byte[] no = "{\"t\":\"a \\u00e9 \\ud7ff b\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(Surrogates.mayHaveEscape(yes, 0, yes.length)).isTrue();
    assertThat(Surrogates.mayHaveEscape(lower, 0, lower.length)).isTrue();
    assertThat(Surrogates.mayHaveEscape(no, 0, no.length)).isFalse();
    assertThat(Surrogates.repair("x\uDC00\uD800")).isEqualTo("x\uFFFD\uFFFD");
    assertThat(Surrogates.repair("\uD83D\uDE80")).isEqualTo("\uD83D\uDE80");
  }
}
