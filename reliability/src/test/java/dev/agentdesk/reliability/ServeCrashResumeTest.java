package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code agentdesk serve} while a Claude Code and a Codex session file are
 * being appended (whole lines, sometimes a line in two writes with a pause between): after a
 * restart the tailing import catches up, and the database equals one made by a single
 * uninterrupted import of the final files (canonical dump). At least 20 trials under
 * -Preliability.
 */
class ServeCrashResumeTest {
  private static final long SEED = 0x5E4E_C4A5L;
  /** Server start-up is JIT-bound; C1 alone starts it in about half the time. */
  private static final List<String> SERVER_JVM = List.of("-XX:TieredStopAtLevel=1", "-Xmx256m");
  private static final long CATCH_UP_SECONDS = 60;

  @Test
  void serverKilledWhileSessionFilesGrowResumesToTheSameDatabase(@TempDir Path tmp) throws Exception {
    int trials = Size.pick(3, 24);
    long writerMillis = 3_000;
    Path claudeSeed = HistoryCorpus.largestSeed(Provider.CLAUDE);
    Path codexSeed = HistoryCorpus.largestSeed(Provider.CODEX);
    SplittableRandom random = new SplittableRandom(SEED);
    int killsWhileWriting = 0;
    int killsWithPartialData = 0;
    int secondKills = 0;
    int linesWritten = 0;
    int splitLines = 0;
    int longPauses = 0;
    for (int t = 0; t < trials; t++) {
      Path dir = Files.createDirectories(tmp.resolve("trial-" + t));
      Path claude = Files.createDirectories(dir.resolve("claude"));
      Path codex = Files.createDirectories(dir.resolve("codex"));
      HistoryCorpus.build(claude, codex, 1);
      // One session id per file: two files claiming one session would be a conflict, not a tail.
      List<LiveSessionWriter.Live> live = List.of(
          LiveSessionWriter.Live.replay(claudeSeed, HistoryCorpus.claudeFile(claude, "-live", id("claude", t))),
          LiveSessionWriter.Live.replay(codexSeed, HistoryCorpus.codexFile(codex, 28, id("codex", t))));
      int lines = live.stream().mapToInt(l -> l.lines().size()).sum();
      LiveSessionWriter writer = new LiveSessionWriter(live, random.nextLong(), Math.max(1, writerMillis / lines));
      AtomicReference<Throwable> writerFailure = new AtomicReference<>();
      Thread writing = new Thread(() -> {
        try {
          writer.run();
        } catch (Throwable e) {
          writerFailure.set(e);
        }
      }, "live-session-writer");

      Path db = dir.resolve("served.db");
      Path home = dir.resolve("home");
      Path log = dir.resolve("serve.log");
      Process server = ServeChild.launch(home, db, claude, codex, SERVER_JVM, log);
      writing.start();
      ServeChild.awaitListening(server, log);
      if (t % 2 == 0) {
        // Every other trial kills while tailing, once the first import has stored something; the
        // others anywhere after listening, the first import included.
        awaitSomeMessages(db, server, log);
      }
      Thread.sleep(random.nextLong(writerMillis / 2));
      boolean writingAtKill = writing.isAlive();
      AgentdeskChild.kill9(server);
      int atKill = Files.exists(db) ? HistoryCorpus.messageCount(db) : 0;
      killsWhileWriting += writingAtKill ? 1 : 0;
      Thread.sleep(random.nextLong(500)); // the writer goes on while no server runs
      server = ServeChild.launch(home, db, claude, codex, SERVER_JVM, log);
      if (random.nextBoolean()) {
        // A second kill, anywhere from JVM start-up to the resumed import.
        if (!server.waitFor(random.nextLong(2_500), TimeUnit.MILLISECONDS)) {
          AgentdeskChild.kill9(server);
          secondKills++;
          server = ServeChild.launch(home, db, claude, codex, SERVER_JVM, log);
        }
      }
      ServeChild.awaitListening(server, log);
      writing.join(TimeUnit.MINUTES.toMillis(2));
      assertThat(writing.isAlive()).as("writer finished").isFalse();
      assertThat(writerFailure.get()).as("writer failure").isNull();
      linesWritten += writer.linesWritten();
      splitLines += writer.splitLines();
      longPauses += writer.longPauses();

      Path reference = dir.resolve("reference.db");
      try (TranscriptHistory h = TranscriptHistory.open(reference)) {
        h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, claude), new Importer.Root(Provider.CODEX, codex)),
            ImportListener.NONE);
      }
      Map<String, Long> imported = cursors(reference);
      for (LiveSessionWriter.Live l : live) {
        assertThat(imported.get(l.file().toAbsolutePath().normalize().toString()))
            .as("uninterrupted import read live file %s to its end", l.file()).isEqualTo(Files.size(l.file()));
      }
      awaitCaughtUp(db, reference, server, log);
      server.destroy(); // SIGTERM: a clean stop, so the dump reads a quiet database
      assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("server stopped on SIGTERM").isTrue();

      int finalMessages = HistoryCorpus.messageCount(db);
      if (atKill > 0 && atKill < finalMessages) {
        killsWithPartialData++;
      }
      assertThat(CanonicalDump.of(db)).as("trial %d (server log %s)", t, log).isEqualTo(CanonicalDump.of(reference));
    }
    assertThat(killsWhileWriting).as("kills that landed while the session files were being written")
        .isGreaterThanOrEqualTo((trials + 1) / 2);
    assertThat(killsWithPartialData).as("kills that left a half-imported database").isGreaterThanOrEqualTo(trials / 2);
    assertThat(splitLines).as("lines written in two parts").isPositive();
    Figures.of("Crash-resume of the server while session files grow (kill -9)")
        .put("trials", trials).put("kills_while_writing", killsWhileWriting)
        .put("kills_with_partial_data", killsWithPartialData).put("second_kills", secondKills)
        .put("lines_appended", linesWritten).put("lines_in_two_writes", splitLines)
        .put("pauses_beyond_debounce", longPauses)
        .write(trials + " trials, 2 live session files", "after restart the tailing import catches up; "
            + "database equals the uninterrupted import of the final files (canonical dump + FTS integrity check)");
  }

  private static String id(String kind, int trial) {
    return UUID.nameUUIDFromBytes(("live-" + kind + "-" + trial).getBytes()).toString();
  }

  /**
   * Waits until the server's import cursors stand where the uninterrupted import's do (every file
   * read to its end); the safety pass every 15 s bounds the wait even if a watch event was lost.
   */
  private static void awaitCaughtUp(Path db, Path reference, Process server, Path log) throws Exception {
    Map<String, Long> expected = cursors(reference);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CATCH_UP_SECONDS);
    Map<String, Long> seen = Map.of();
    while (System.nanoTime() < deadline) {
      assertThat(server.isAlive()).as("server alive while catching up; log %s", log).isTrue();
      seen = cursors(db);
      if (seen.equals(expected)) {
        return;
      }
      Thread.sleep(100);
    }
    assertThat(seen).as("import cursors %d s after the last append; log %s", CATCH_UP_SECONDS, log)
        .isEqualTo(expected);
  }

  private static void awaitSomeMessages(Path db, Process server, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CATCH_UP_SECONDS);
    while (!Files.exists(db) || HistoryCorpus.messageCount(db) == 0) {
      assertThat(server.isAlive()).as("server alive during the first import; log %s", log).isTrue();
      assertThat(System.nanoTime()).as("first import stored messages in time; log %s", log).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static Map<String, Long> cursors(Path db) throws SQLException {
    Map<String, Long> out = new TreeMap<>();
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement();
        var rs = s.executeQuery("SELECT path, byte_offset FROM cursors")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    } catch (SQLException e) {
      if (String.valueOf(e.getMessage()).contains("no such table")) {
        return out;
      }
      throw e;
    }
    return out;
  }
}
