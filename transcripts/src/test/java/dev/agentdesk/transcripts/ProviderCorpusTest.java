package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every invariant (fresh parse == persisted detail, twice == once, appended pieces == whole, usage
 * once, results attached, nothing hidden shown) on every Gemini CLI, Copilot CLI, Cursor and pi file of
 * the shared corpus, none of which may have a problem line.
 */
class ProviderCorpusTest {
  static Stream<Arguments> files() throws IOException {
    Path root = SharedCorpus.require("corpus/transcripts");
    List<Arguments> out = new ArrayList<>();
    add(out, Provider.GEMINI, root, "agent-sessions/stage0/agents/gemini", ".json", ".jsonl");
    add(out, Provider.GEMINI, root, "agentsview/gemini", ".json");
    add(out, Provider.COPILOT, root, "agent-sessions/stage0/agents/copilot", ".jsonl");
    add(out, Provider.CURSOR, root, "agent-sessions/stage0/agents/cursor", ".jsonl");
    add(out, Provider.PI, root, "agent-sessions/stage0/agents/pi", ".jsonl");
    return out.stream();
  }

  private static void add(List<Arguments> out, Provider p, Path root, String dir, String... endings)
      throws IOException {
    try (Stream<Path> s = Files.walk(root.resolve(dir))) {
      for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
        for (String e : endings) {
          if (f.toString().endsWith(e)) {
            out.add(Arguments.of(p, root.relativize(f).toString()));
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("files")
  void invariantsHoldWithoutProblems(Provider provider, String relative, @TempDir Path work) throws IOException {
    Path file = SharedCorpus.require("corpus/transcripts/" + relative);
    assertThat(Transcripts.parse(provider, file).problems()).as("problems of %s", relative).isEmpty();
    Invariants.check(provider, file, work);
  }
}
