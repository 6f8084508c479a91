package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/** Claude Code and Codex history folders built from the recorded transcripts, for import runs. */
final class HistoryCorpus {
  private HistoryCorpus() {}

  /** Every Claude Code and Codex session file of the fixtures and the shared corpus. */
  static List<Path> seeds() {
    return Seeds.files(List.of("transcripts/src/test/resources/fixtures"), List.of("corpus/transcripts"),
        p -> p.toString().endsWith(".jsonl") && !p.toString().contains("/subagents/")
            && !p.toString().matches(".*/(gemini|copilot|cursor|pi|opencode)/.*"));
  }

  /** The largest seed of a provider: the session a live writer replays line by line. */
  static Path largestSeed(Provider provider) {
    return seeds().stream().filter(p -> Transcripts.detectProvider(p) == provider)
        .max(Comparator.comparingLong(HistoryCorpus::size))
        .orElseThrow(() -> new IllegalStateException("no " + provider + " session among the seeds"));
  }

  /** Where a session file with this id lives under the Claude projects folder. */
  static Path claudeFile(Path claude, String project, String id) {
    return claude.resolve(project).resolve(id + ".jsonl");
  }

  /** Where a session file with this id lives under the Codex sessions folder. */
  static Path codexFile(Path codex, int day, String id) {
    return codex.resolve("2026/01/" + String.format("%02d", day)).resolve("rollout-2026-01-01T00-00-00-" + id + ".jsonl");
  }

  /** Copies every seed {@code copies} times under fresh session ids; returns the bytes written. */
  static long build(Path claude, Path codex, int copies) throws IOException {
    long bytes = 0;
    for (int k = 0; k < copies; k++) {
      for (Path seed : seeds()) {
        String id = UUID.nameUUIDFromBytes((k + seed.toString()).getBytes()).toString();
        Path target = Transcripts.detectProvider(seed) == Provider.CODEX
            ? codexFile(codex, 1 + k % 9, id)
            : claudeFile(claude, "-proj-" + (k % 7), id);
        Files.createDirectories(target.getParent());
        Files.copy(seed, target);
        bytes += Files.size(target);
      }
    }
    return bytes;
  }

  static int messageCount(Path db) throws SQLException {
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement();
        var rs = s.executeQuery("SELECT count(*) FROM messages")) {
      return rs.next() ? rs.getInt(1) : 0;
    } catch (SQLException e) {
      if (String.valueOf(e.getMessage()).contains("no such table")) {
        return 0; // killed before the first migration committed
      }
      throw e;
    }
  }

  static void deleteDb(Path db) throws IOException {
    for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
      Files.deleteIfExists(Path.of(db + suffix));
    }
    assertThat(db).doesNotExist();
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
