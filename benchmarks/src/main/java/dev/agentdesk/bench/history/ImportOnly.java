package dev.agentdesk.bench.history;

import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.ImportReport;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The cold import of {@link HistoryBench} alone, for comparing import settings in alternating runs
 * (the whole suite takes ~15 min): imports the corpus's Claude and Codex folders into a new
 * database and prints one line (seconds, MB/s, records, database size). The importer's tuning
 * properties ({@code -Dagentdesk.import.aheadBytes=N}, {@code -Dagentdesk.import.transactionBytes=N})
 * and JVM flags go on the java command line.
 *
 * <p>Usage: {@code ImportOnly CORPUS_DIR DB_FILE} (the file and its WAL are deleted first).
 */
public final class ImportOnly {
  private ImportOnly() {}

  /** What one cold import did and how long it took. */
  record Run(ImportReport report, double seconds) {}

  /** Imports the corpus into a new database {@code db} (an old file and its WAL are deleted first). */
  static Run coldImport(Path corpus, Path db) throws java.io.IOException {
    for (String suffix : new String[] {"", "-wal", "-shm"}) {
      Files.deleteIfExists(Path.of(db + suffix));
    }
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, corpus.resolve("claude/projects")),
        new Importer.Root(Provider.CODEX, corpus.resolve("codex/sessions")));
    long t0 = System.nanoTime();
    ImportReport report;
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      report = h.importFrom(roots, ImportListener.NONE);
    }
    return new Run(report, (System.nanoTime() - t0) / 1e9);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ImportOnly CORPUS_DIR DB_FILE");
      System.exit(2);
    }
    Path db = Path.of(args[1]);
    Run run = coldImport(Path.of(args[0]), db);
    System.out.printf("%.2f s  %.1f MB/s  records %d  db %d MB%n", run.seconds(),
        run.report().bytesRead() / 1e6 / run.seconds(), run.report().records(), Files.size(db) >> 20);
  }
}
