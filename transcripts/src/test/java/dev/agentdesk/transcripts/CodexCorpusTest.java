package dev.agentdesk.transcripts;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every invariant on every Codex rollout of the shared corpus. */
class CodexCorpusTest {
  static Stream<String> codexFiles() throws IOException {
    Path root = SharedCorpus.require("corpus/transcripts");
    List<String> dirs = List.of("agentsview/codex", "claude-code-log/codex", "ccusage/fixtures/codex",
        "agent-sessions/stage0/agents/codex");
    Stream<String> rollouts = dirs.stream().map(root::resolve).filter(Files::isDirectory).flatMap(d -> {
      try (Stream<Path> s = Files.walk(d)) {
        return s.filter(p -> p.toString().endsWith(".jsonl")).map(p -> root.relativize(p).toString()).sorted()
            .toList().stream();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    try (Stream<Path> s = Files.list(root.resolve("agent-sessions"))) {
      List<String> legacy = s.filter(p -> p.getFileName().toString().startsWith("codex_"))
          .map(p -> root.relativize(p).toString()).sorted().toList();
      return Stream.concat(rollouts, legacy.stream());
    }
  }

  @ParameterizedTest
  @MethodSource("codexFiles")
  void invariantsHold(String relative, @TempDir Path work) throws IOException {
    Invariants.check(Provider.CODEX, SharedCorpus.require("corpus/transcripts/" + relative), work);
  }
}
