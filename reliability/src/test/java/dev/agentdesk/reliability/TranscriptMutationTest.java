package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.assemble.DetailJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transcript adapters fed mutated JSONL. Corrupting lines (so they no longer parse as JSON)
 * must report exactly those lines — file and line number — and skip them, and every intact line
 * must be kept: the session detail of the corrupted file equals the detail of the same file with
 * the corrupt lines blanked out (same byte offsets, so identities derived from offsets agree).
 */
class TranscriptMutationTest {
  private static final long SEED = 0x7_2A5CL;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void everyCorruptLineIsReportedAndSkippedAndEveryIntactLineKept(@TempDir Path tmp) throws IOException {
    List<Path> seeds = Seeds.files(List.of("transcripts/src/test/resources/fixtures"),
        List.of("corpus/transcripts"), TranscriptMutationTest::claudeOrCodex);
    assertThat(seeds).isNotEmpty();
    int trials = Size.pick(200, 20_000);
    SplittableRandom random = new SplittableRandom(SEED);
    int corruptLines = 0;
    int files = 0;
    for (int t = 0; t < trials; t++) {
      Path seed = seeds.get(random.nextInt(seeds.size()));
      Provider provider = Transcripts.detectProvider(seed);
      List<String> lines = new ArrayList<>(List.of(Files.readString(seed, StandardCharsets.UTF_8).split("\n", -1)));
      // The last line stays intact: a truncated last line is "not yet written", not corrupt.
      int candidates = lines.size() - 2;
      if (candidates < 1) {
        continue;
      }
      TreeSet<Long> corrupted = new TreeSet<>();
      List<String> blanked = new ArrayList<>(lines);
      for (int k = 1 + random.nextInt(Math.min(3, candidates)); k > 0; k--) {
        int i = random.nextInt(candidates);
        String bad = corrupt(lines.get(i), random);
        if (bad == null) {
          continue;
        }
        lines.set(i, bad);
        blanked.set(i, " ".repeat(bad.getBytes(StandardCharsets.UTF_8).length));
        corrupted.add((long) i + 1);
      }
      if (corrupted.isEmpty()) {
        continue;
      }
      Path mutated = write(tmp, provider, "m" + t, lines);
      Path reference = write(tmp, provider, "r" + t, blanked);
      Transcripts.FreshParse m = Transcripts.parse(provider, mutated);
      Transcripts.FreshParse r = Transcripts.parse(provider, reference);
      // Lines the adapter already reports in the intact file (e.g. a message without content) stay
      // reported; on top of those, exactly the corrupted lines.
      TreeSet<Long> expected = new TreeSet<>(corrupted);
      r.problems().forEach(p -> expected.add(p.line()));
      assertThat(r.problems()).as("blanked lines are not problems")
          .noneMatch(p -> corrupted.contains(p.line()));
      assertThat(m.problems())
          .withFailMessage("expected problems on lines %s, got %s; mutated file:%n%s", expected, m.problems(),
              String.join("\n", lines))
          .extracting(LineProblem::line).containsExactlyElementsOf(expected);
      assertThat(m.problems()).allSatisfy(p -> assertThat(p.file()).contains(mutated.getFileName().toString()));
      if (!r.records().isEmpty()) {
        assertThat(DetailJson.write(m.detail()).replace("m" + t, "X"))
            .as("detail of %s with corrupt lines %s", seed, corrupted)
            .isEqualTo(DetailJson.write(r.detail()).replace("r" + t, "X"));
      }
      corruptLines += corrupted.size();
      files++;
      Files.delete(mutated);
      Files.delete(reference);
    }
    assertThat(files).isPositive();
    Figures.of("Transcript adapters, mutated JSONL").put("files", files).put("corrupt_lines", corruptLines)
        .write(files + " mutated files, " + corruptLines + " corrupt lines",
            "every corrupt line reported (file, line) and skipped; every intact line kept (detail equal)");
  }

  /** A version of {@code line} that is no longer one JSON value, or null when it cannot be made so. */
  private static String corrupt(String line, SplittableRandom random) {
    if (line.isBlank()) {
      return null;
    }
    for (int attempt = 0; attempt < 5; attempt++) {
      String bad = switch (random.nextInt(4)) {
        case 0 -> {
          int cut = random.nextInt(Math.max(1, line.length() - 1)) + 1;
          // Never split a surrogate pair: the corrupt line must still be writable as UTF-8.
          yield line.substring(0, Character.isHighSurrogate(line.charAt(cut - 1)) ? cut - 1 : cut);
        }
        case 1 -> "\u0000garbage" + line;
        case 2 -> line + "}{";
        default -> line.replaceFirst("\"", "");
      };
      if (!bad.isBlank() && !parses(bad)) {
        return bad;
      }
    }
    return null;
  }

  private static boolean parses(String s) {
    try {
      JSON.readTree(s);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean claudeOrCodex(Path p) {
    String s = p.toString();
    return s.endsWith(".jsonl") && !s.contains("/gemini/") && !s.contains("/copilot/") && !s.contains("/cursor/")
        && !s.contains("/pi/") && !s.contains("/opencode/") && !s.contains("/subagents/");
  }

  private static Path write(Path dir, Provider provider, String name, List<String> lines) throws IOException {
    String file = provider == Provider.CODEX
        ? "rollout-2026-01-01T00-00-00-" + name + ".jsonl"
        : name + ".jsonl";
    Path p = dir.resolve(file);
    Files.writeString(p, String.join("\n", lines), StandardCharsets.UTF_8);
    return p;
  }
}
