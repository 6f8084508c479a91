package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
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
    long corpusBytes = HistoryCorpus.build(claude, codex, Size.pick(12, 40));

    Path reference = tmp.resolve("reference.db");
    long t0 = System.nanoTime();
    assertThat(runImport(reference, claude, codex, -1)).isZero();
    long fullMillis = (System.nanoTime() - t0) / 1_000_000;
    // Kill times are scheduled from the faster of two uninterrupted runs: the first also pays for
    // cold caches, and on a loaded machine one slow run would schedule most kills after a faster
    // trial has already finished (the import itself is now a small part of the child's lifetime).
    Path calibration = tmp.resolve("calibration.db");
    long t1 = System.nanoTime();
    assertThat(runImport(calibration, claude, codex, -1)).isZero();
    fullMillis = Math.min(fullMillis, (System.nanoTime() - t1) / 1_000_000);
    HistoryCorpus.deleteDb(calibration);
    String expected = CanonicalDump.of(reference);
    assertThat(expected).contains("## messages");

    int trials = Size.pick(8, 40);
    SplittableRandom random = new SplittableRandom(SEED);
    int killedMidway = 0;
    int killedWithPartialData = 0;
    int expectedMessages = HistoryCorpus.messageCount(reference);
    for (int t = 0; t < trials; t++) {
      Path db = tmp.resolve("trial-" + t + ".db");
      // JVM start-up takes the first quarter or so; kill after it, while records are being written.
      long killAfter = fullMillis / 4 + random.nextLong(fullMillis - fullMillis / 4);
      int status = runImport(db, claude, codex, killAfter);
      if (status != 0) {
        killedMidway++;
        int partial = Files.exists(db) ? HistoryCorpus.messageCount(db) : 0;
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
      HistoryCorpus.deleteDb(db);
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
    return AgentdeskChild.run(
        // Many small transactions, so kills land between commits as well as inside them.
        List.of("-XX:TieredStopAtLevel=1", "-Dagentdesk.import.transactionBytes=65536"),
        List.of("history", "import", "--db", db.toString(), "--claude", claude.toString(),
            "--codex", codex.toString(), "--no-progress"),
        killAfterMillis);
  }
}
