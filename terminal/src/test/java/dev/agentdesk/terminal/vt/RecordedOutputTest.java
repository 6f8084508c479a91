package dev.agentdesk.terminal.vt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Output of real programs, rendered by our engine and by xterm.js: the small fixtures recorded in
 * a PTY here (fixtures.tsv) and the real agent captures in ../shared/corpus/terminal. The screen
 * is compared after every prefix cut at a fixed step, so intermediate states (inside less, vim,
 * the gh alternate screen) are checked too, and our engine is fed in 4 KiB chunks as a PTY would
 * deliver them.
 */
class RecordedOutputTest {
  private static final String FIXTURES = "/dev/agentdesk/terminal/vt/fixtures/";
  private static XtermReference xterm;

  static synchronized XtermReference xterm() throws IOException {
    if (xterm == null) {
      xterm = new XtermReference();
    }
    return xterm;
  }

  @AfterAll
  static synchronized void stop() {
    if (xterm != null) {
      xterm.close();
      xterm = null;
    }
  }

  static Stream<Arguments> fixtures() throws IOException {
    List<Arguments> out = new ArrayList<>();
    try (InputStream in = RecordedOutputTest.class.getResourceAsStream(FIXTURES + "fixtures.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        out.add(Arguments.of(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2])));
      }
    }
    return out.stream();
  }

  static byte[] fixture(String name) throws IOException {
    try (InputStream in = RecordedOutputTest.class.getResourceAsStream(FIXTURES + name)) {
      assertThat(in).as("fixture %s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  @ParameterizedTest(name = "{0} at {1}x{2}")
  @MethodSource("fixtures")
  void recordedProgramsRenderLikeXtermJs(String name, int cols, int rows) throws IOException {
    byte[] bytes = fixture(name);
    assertThat(bytes.length).isGreaterThan(100);
    compareAtPrefixes(name, bytes, cols, rows, 256);
  }

  @Test
  void lessAndVimLeaveNothingOfTheirAlternateScreenInTheLog() throws IOException {
    for (String name : List.of("less-alt-screen.raw", "vim-alt-screen.raw")) {
      VtEngine e = new VtEngine(80, 24);
      e.feed(fixture(name));
      assertThat(e.snapshot().altScreen()).as(name).isFalse();
      assertThat(e.log()).as(name).isEmpty();
    }
  }

  @Test
  void progressBarRedrawsLeaveOnlyTheFinalState() throws IOException {
    VtEngine e = new VtEngine(80, 24);
    e.feed(fixture("progress-cr.raw"));
    assertThat(e.snapshot().lines().subList(0, 2))
        .containsExactly("downloading [####################] 100%", "done");
  }

  @ParameterizedTest(name = "{0} at {1}x{2}")
  @MethodSource("sharedCaptures")
  void realAgentCapturesRenderLikeXtermJs(String path, int cols, int rows) throws IOException {
    byte[] bytes = Files.readAllBytes(SharedCorpus.require(path));
    compareAtPrefixes(path, bytes, cols, rows, 2048);
  }

  static Stream<Arguments> sharedCaptures() {
    return Stream.of(
        Arguments.of("corpus/terminal/agent_prompts/claude-plan-picker.raw", 128, 41),
        Arguments.of("corpus/terminal/agent_prompts/claude-plan-picker.raw", 80, 24),
        Arguments.of("corpus/terminal/alt_screen/gh-run-watch.raw", 128, 41),
        Arguments.of("corpus/terminal/alt_screen/gh-run-watch.raw", 80, 24));
  }

  @Test
  void ghRunWatchAlternateScreenNeverReachesTheDurableLog() throws IOException {
    byte[] bytes = Files.readAllBytes(SharedCorpus.require("corpus/terminal/alt_screen/gh-run-watch.raw"));
    for (int[] size : new int[][] {{128, 41}, {80, 24}}) {
      VtEngine e = new VtEngine(size[0], size[1]);
      boolean sawAlt = false;
      for (int off = 0; off < bytes.length; off += 4096) {
        e.feed(bytes, off, Math.min(4096, bytes.length - off));
        sawAlt |= e.snapshot().altScreen();
      }
      assertThat(sawAlt).isTrue();
      assertThat(e.log()).as("log at %dx%d", size[0], size[1]).isEmpty();
    }
  }

  private static void compareAtPrefixes(String name, byte[] bytes, int cols, int rows, int step) throws IOException {
    VtEngine ours = new VtEngine(cols, rows);
    int fed = 0;
    List<Integer> cuts = new ArrayList<>();
    for (int c = step; c < bytes.length; c += step) {
      cuts.add(c);
    }
    cuts.add(bytes.length);
    for (int cut : cuts) {
      while (fed < cut) {
        int n = Math.min(4096, cut - fed);
        ours.feed(bytes, fed, n);
        fed += n;
      }
      XtermReference.Screen expected = xterm().render(cols, rows, Arrays.copyOf(bytes, cut)).withoutWrapFlagsAndTitle();
      XtermReference.Screen actual = XtermReference.Screen.of(ours.snapshot()).withoutWrapFlagsAndTitle();
      assertThat(actual.render()).as("%s at %dx%d after %d of %d bytes", name, cols, rows, cut, bytes.length)
          .isEqualTo(expected.render());
    }
  }
}
