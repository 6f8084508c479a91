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

/** Every invariant on every Claude Code file of the shared corpus. */
class ClaudeCorpusTest {
  static Stream<String> claudeFiles() throws IOException {
    Path root = SharedCorpus.require("corpus/transcripts");
    List<String> dirs = List.of("agentsview/claude", "claude-code-log", "ccusage",
        "agent-sessions/stage0/agents/claude");
    return dirs.stream().map(root::resolve).filter(Files::isDirectory).flatMap(d -> {
      try {
        return Files.walk(d).filter(p -> p.toString().endsWith(".jsonl"))
            .filter(p -> !p.toString().contains("/codex/")).map(p -> root.relativize(p).toString()).sorted().toList()
            .stream();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  @ParameterizedTest
  @MethodSource("claudeFiles")
  void invariantsHold(String relative, @TempDir Path work) throws IOException {
    Invariants.check(Provider.CLAUDE, SharedCorpus.require("corpus/transcripts/" + relative), work);
  }
}
