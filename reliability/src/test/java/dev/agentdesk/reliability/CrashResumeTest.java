package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code agentdesk history import} at random points, then a resumed import:
 * the database must equal one made by a single uninterrupted import (canonical dump). The import
 * runs in a child JVM so the kill is a real SIGKILL mid-transaction.
 */
class CrashResumeTest {
  private static final long SEED = 0xC2A5_4L;

  @Test
  void killedImportsResumeToTheSameDatabase(@TempDir Path tmp) throws Exception {
    Path claude = Files.createDirectories(tmp.resolve("claude"));
    Path codex = Files.createDirectories(tmp.resolve("codex"));
    long corpusBytes = buildCorpus(claude, codex, Size.pick(12, 40));

    Path reference = tmp.resolve("reference.db");
    long t0 = System.nanoTime();
    assertThat(runImport(reference, claude, codex, -1)).isZero();
    long fullMillis = (System.nanoTime() - t0) / 1_000_000;
    String expected = CanonicalDump.of(reference);
    assertThat(expected).contains("## messages");

    int trials = Size.pick(8, 40);
    SplittableRandom random = new SplittableRandom(SEED);
    int killedMidway = 0;
    int killedWithPartialData = 0;
    int expectedMessages = messageCount(reference);
    for (int t = 0; t < trials; t++) {
      Path db = tmp.resolve("trial-" + t + ".db");
      // JVM start-up takes the first quarter or so; kill after it, while records are being written.
      long killAfter = fullMillis / 4 + random.nextLong(fullMillis - fullMillis / 4);
      int status = runImport(db, claude, codex, killAfter);
      if (status != 0) {
        killedMidway++;
        int partial = Files.exists(db) ? messageCount(db) : 0;
        if (partial > 0 && partial < expectedMessages) {
          killedWithPartialData++;
        }
        // A second kill on the resumed run, for a crash during recovery.
        if (random.nextBoolean()) {
          runImport(db, claude, codex, random.nextLong(fullMillis));
        }
      }
      assertThat(runImport(db, claude, codex, -1)).as("resumed import of trial %d", t).isZero();
      assertThat(CanonicalDump.of(db)).as("trial %d killed after %d ms", t, killAfter).isEqualTo(expected);
      deleteDb(db);
    }
    assertThat(killedMidway).as("kills that landed before the import finished").isGreaterThanOrEqualTo(trials / 2);
    assertThat(killedWithPartialData).as("kills that left a half-written database").isPositive();
    Figures.of("Crash-resume of history import (kill -9)").put("trials", trials).put("killed_midway", killedMidway)
        .put("killed_with_partial_data", killedWithPartialData)
        .put("corpus_kib", corpusBytes / 1024).put("uninterrupted_ms", fullMillis)
        .write(trials + " trials over " + corpusBytes / 1024 + " KiB",
            "resumed database equals the uninterrupted import (canonical dump + FTS integrity check)");
  }

  /** Runs the CLI import in a child JVM; with {@code killAfterMillis >= 0} it is SIGKILLed then. */
  private static int runImport(Path db, Path claude, Path codex, long killAfterMillis) throws Exception {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-XX:TieredStopAtLevel=1",
        // Many small transactions, so kills land between commits as well as inside them.
        "-Dagentdesk.import.transactionBytes=65536", "dev.agentdesk.app.Main",
        "history", "import", "--db", db.toString(), "--claude", claude.toString(), "--codex", codex.toString(),
        "--no-progress");
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    if (killAfterMillis >= 0 && !p.waitFor(killAfterMillis, TimeUnit.MILLISECONDS)) {
      p.destroyForcibly(); // SIGKILL on Linux
      p.waitFor();
      return 137;
    }
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("import did not finish");
    }
    return p.exitValue();
  }

  /** Copies the Claude and Codex fixtures {@code copies} times under fresh session ids. */
  private static long buildCorpus(Path claude, Path codex, int copies) throws IOException {
    List<Path> seeds = Seeds.files(List.of("transcripts/src/test/resources/fixtures"), List.of("corpus/transcripts"),
        p -> p.toString().endsWith(".jsonl") && !p.toString().contains("/subagents/")
            && !p.toString().matches(".*/(gemini|copilot|cursor|pi|opencode)/.*"));
    long bytes = 0;
    List<Path> written = new ArrayList<>();
    for (int k = 0; k < copies; k++) {
      for (Path seed : seeds) {
        String id = UUID.nameUUIDFromBytes((k + seed.toString()).getBytes()).toString();
        Path target = Transcripts.detectProvider(seed) == Provider.CODEX
            ? codex.resolve("2026/01/0" + (1 + k % 9)).resolve("rollout-2026-01-01T00-00-00-" + id + ".jsonl")
            : claude.resolve("-proj-" + (k % 7)).resolve(id + ".jsonl");
        Files.createDirectories(target.getParent());
        Files.copy(seed, target);
        written.add(target);
        bytes += Files.size(target);
      }
    }
    return bytes;
  }

  private static int messageCount(Path db) throws java.sql.SQLException {
    try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement();
        var rs = s.executeQuery("SELECT count(*) FROM messages")) {
      return rs.next() ? rs.getInt(1) : 0;
    } catch (java.sql.SQLException e) {
      if (String.valueOf(e.getMessage()).contains("no such table")) {
        return 0; // killed before the first migration committed
      }
      throw e;
    }
  }

  private static void deleteDb(Path db) throws IOException {
    for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
      Files.deleteIfExists(Path.of(db + suffix));
    }
    assertThat(new File(db.toString()).exists()).isFalse();
  }
}
