package dev.agentdesk.terminal.vt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Two peers' own reference screens ({@code ../shared/corpus/vt-peer}): Alacritty's recorded grids
 * and xterm.js's escape-sequence files (expected text from a real xterm). Each case's bytes go
 * through the engine at the case's size and the visible text (rows right-trimmed, trailing blank
 * rows dropped) must equal the peer's; {@code quirks.json} names the exclusions and why.
 */
class VtPeerCorpusTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void everyPeerScreenMatchesLessTheQuirks() throws IOException {
    Path root = SharedCorpus.require("corpus/vt-peer");
    JsonNode quirks = JSON.readTree(root.resolve("quirks.json").toFile());
    Set<String> excluded = new TreeSet<>();
    quirks.get("exclude").fieldNames().forEachRemaining(excluded::add);
    Set<String> underscoreBlank = new TreeSet<>();
    quirks.get("dec_graphics_0x5f").get("cases").forEach(n -> underscoreBlank.add(n.asText()));

    Map<String, String> mismatches = new LinkedHashMap<>();
    int scored = 0;
    for (Path dir : cases(root.resolve("alacritty"))) {
      String name = "alacritty/" + dir.getFileName();
      if (excluded.contains(name)) {
        continue;
      }
      scored++;
      JsonNode size = JSON.readTree(dir.resolve("size.json").toFile());
      String actual = render(Files.readAllBytes(dir.resolve("alacritty.recording")),
          size.get("columns").asInt(), size.get("screen_lines").asInt());
      String expected = alacrittyScreen(dir.resolve("grid.json.gz"));
      if (underscoreBlank.contains(name)) {
        actual = actual.replace('_', ' ');
        expected = expected.replace('_', ' ');
      }
      compare(name, normalise(expected), normalise(actual), mismatches);
    }
    for (Path dir : cases(root.resolve("xtermjs"))) {
      String name = "xtermjs/" + dir.getFileName();
      if (excluded.contains(name)) {
        continue;
      }
      scored++;
      // The upstream harness resets the terminal, homes the cursor, then writes the file through a
      // pty slave whose ONLCR turns each LF into CR LF.
      byte[] in = onlcr(Files.readAllBytes(dir.resolve("input.in")));
      byte[] prefix = "\u001bc\u001b[H".getBytes(StandardCharsets.US_ASCII);
      byte[] all = new byte[prefix.length + in.length];
      System.arraycopy(prefix, 0, all, 0, prefix.length);
      System.arraycopy(in, 0, all, prefix.length, in.length);
      String actual = render(all, 80, 25);
      String expected = Files.readString(dir.resolve("expected.text"), StandardCharsets.UTF_8);
      compare(name, normalise(expected), normalise(actual), mismatches);
    }
    assertThat(scored).as("cases scored (43 + 71 less the quirks)").isEqualTo(43 + 71 - excluded.size());
    assertThat(mismatches).as("screens that differ from the peer's (" + (scored - mismatches.size()) + " of " + scored
        + " match)").isEmpty();
  }

  private static List<Path> cases(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).sorted().toList();
    }
  }

  private static void compare(String name, String expected, String actual, Map<String, String> mismatches) {
    if (!expected.equals(actual)) {
      mismatches.put(name, "\n--- expected\n" + expected + "\n--- actual\n" + actual);
    }
  }

  static String render(byte[] bytes, int cols, int rows) {
    VtEngine engine = new VtEngine(cols, rows, 0);
    engine.feed(bytes);
    return engine.snapshot().text();
  }

  /** Rows right-trimmed, trailing blank rows dropped: the comparison both peers' harnesses make. */
  static String normalise(String text) {
    List<String> rows = new ArrayList<>(List.of(text.split("\n", -1)));
    rows.replaceAll(VtPeerCorpusTest::stripTrailing);
    while (!rows.isEmpty() && rows.get(rows.size() - 1).isEmpty()) {
      rows.remove(rows.size() - 1);
    }
    return String.join("\n", rows);
  }

  private static String stripTrailing(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return s.substring(0, end);
  }

  private static byte[] onlcr(byte[] in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + in.length / 8);
    for (byte b : in) {
      if (b == '\n') {
        out.write('\r');
      }
      out.write(b);
    }
    return out.toByteArray();
  }

  /**
   * The visible rows of an Alacritty {@code Grid} dump: {@code raw.inner[0]} is the bottom row;
   * wide-char spacers are dropped, leading spacers and tabs read as a space, zero-width characters
   * follow their base.
   */
  static String alacrittyScreen(Path gridGz) throws IOException {
    JsonNode grid;
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gridGz))) {
      grid = JSON.readTree(in);
    }
    int lines = grid.get("lines").asInt();
    JsonNode inner = grid.get("raw").get("inner");
    List<String> rows = new ArrayList<>();
    for (int i = lines - 1; i >= 0; i--) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode cell : inner.get(i).get("inner")) {
        Set<String> flags = new TreeSet<>(List.of(cell.get("flags").asText().split(" \\| ")));
        if (flags.contains("WIDE_CHAR_SPACER")) {
          continue;
        }
        String c = cell.get("c").asText();
        sb.append(flags.contains("LEADING_WIDE_CHAR_SPACER") || c.equals("\t") ? " " : c);
        JsonNode extra = cell.get("extra");
        if (extra != null && !extra.isNull() && extra.has("zerowidth")) {
          for (Iterator<JsonNode> z = extra.get("zerowidth").elements(); z.hasNext(); ) {
            sb.append(z.next().asText());
          }
        }
      }
      rows.add(sb.toString());
    }
    return String.join("\n", rows);
  }
}
