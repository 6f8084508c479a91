package dev.agentdesk.transcripts.index;

import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.ImportReport;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.adapter.Cursor;
import dev.agentdesk.transcripts.adapter.ParseResult;
import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.adapter.SourceUnit;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds transcript files under provider roots and brings the store up to date with them, batch by
 * batch from each file's cursor. Running it again only reads what was appended.
 *
 * <p>Parsing runs on one background thread, up to {@link #AHEAD_BYTES} of source ahead of the writer
 * (the calling thread, which owns the database connection), so parsing and SQLite work overlap.
 */
public final class Importer {
  /**
   * Source bytes the parser may read ahead of the writer. Bounded by bytes, not by batches: most
   * batches are one small file, and three of them (the bound before) kept the two threads in lock
   * step: on the 1 GB corpus of {@code ./bench history} the writer waited ~13 s for the parser while
   * the parser waited for room, 56 s in all; 44–49 s with 16 MB or more ahead (alternating runs).
   * 16 MB held the least memory of those. A system property for measuring it.
   */
  private static final long AHEAD_BYTES = Long.getLong("agentdesk.import.aheadBytes", 16L << 20);
  /** What an item counts toward {@link #AHEAD_BYTES} beyond its bytes, so that many empty batches are bounded too. */
  private static final long ITEM_BYTES = 4096;
  /**
   * Bytes of source read per write transaction (small files are grouped). A system property so the
   * crash-resume suite can make kill points land between many commits of a small corpus.
   */
  private static final long TRANSACTION_BYTES = Long.getLong("agentdesk.import.transactionBytes", 16L << 20);
  private final TranscriptStore store;

  public Importer(TranscriptStore store) {
    this.store = store;
  }

  /** A provider and the directory (or single file) holding its transcripts. */
  public record Root(Provider provider, Path path) {}

  /** One item of the parse-ahead queue. */
  private sealed interface Work permits Batch, Skip, Failure, End {}

  private record Batch(SourceUnit unit, ParseResult result, boolean fileDone) implements Work {}

  private record Skip(SourceUnit unit, LineProblem problem) implements Work {}

  private record Failure(RuntimeException error) implements Work {}

  private record End() implements Work {}

  public ImportReport run(List<Root> roots, ImportListener listener) {
    List<SourceUnit> units = new ArrayList<>();
    Map<Path, Long> sizes = new HashMap<>();
    java.util.Set<String> seenKeys = new java.util.HashSet<>();
    long total = 0;
    for (Root root : roots) {
      for (SourceUnit u : units(ProviderAdapter.of(root.provider()), root.path())) {
        if (!seenKeys.add(u.key())) {
          continue; // the same file under two roots (a folder and a link to it) is read once
        }
        units.add(u);
        if (!sizes.containsKey(u.file())) {
          // A file that holds several sessions counts once toward the bytes to read.
          long size = sizeOf(u.file());
          sizes.put(u.file(), size);
          total += size;
        }
      }
    }
    // Read what the parser needs from the database up front: the connection stays on this thread.
    Map<SourceUnit, Cursor> cursors = new HashMap<>();
    Map<SourceUnit, String> conflicts = new HashMap<>();
    Map<String, String> claimed = new HashMap<>();
    for (SourceUnit unit : units) {
      String path = unit.key();
      String owner = store.sessionOwner(unit.sessionId()).orElse(claimed.get(unit.sessionId()));
      if (owner != null && !owner.equals(path)) {
        conflicts.put(unit, owner);
      } else {
        claimed.put(unit.sessionId(), path);
      }
      store.cursor(unit).ifPresent(c -> cursors.put(unit, c));
    }
    listener.started(units.size(), total);

    ParseAhead<Work> queue = new ParseAhead<>(AHEAD_BYTES);
    Thread parser = new Thread(() -> parseAll(units, cursors, conflicts, queue), "transcript-parser");
    parser.setDaemon(true);
    parser.start();

    List<LineProblem> problems = new ArrayList<>();
    Map<String, Long> ignored = new TreeMap<>();
    long done = 0;
    long bytes = 0;
    long records = 0;
    int changed = 0;
    long fileDone = 0;
    boolean fileChanged = false;
    List<TranscriptStore.UnitBatch> pending = new ArrayList<>();
    long pendingBytes = 0;
    try {
      while (true) {
        Work w = take(queue);
        if (w instanceof End) {
          store.writeBatch(pending);
          break;
        } else if (w instanceof Failure f) {
          throw f.error();
        } else if (w instanceof Skip s) {
          problems.add(s.problem());
          listener.problem(s.problem());
          done += sizes.getOrDefault(s.unit().file(), 0L);
          listener.progress(done, total, s.unit().file());
        } else if (w instanceof Batch b) {
          ParseResult r = b.result();
          boolean restarted = r.records().stream().anyMatch(DeleteSessionRecord.class::isInstance);
          if (r.bytesRead() > 0 || restarted || !cursors.containsKey(b.unit())) {
            // Small files are grouped into one transaction; each batch still travels with its cursor.
            pending.add(new TranscriptStore.UnitBatch(b.unit(), r));
            pendingBytes += r.bytesRead();
            if (pendingBytes >= TRANSACTION_BYTES) {
              store.writeBatch(pending);
              pending.clear();
              pendingBytes = 0;
            }
            fileChanged = true;
            records += r.records().size();
          }
          for (LineProblem p : r.problems()) {
            problems.add(p);
            listener.problem(p);
          }
          r.ignored().forEach((k, v) -> ignored.merge(k, v, Long::sum));
          bytes += r.bytesRead();
          fileDone += r.bytesRead();
          long size = sizes.getOrDefault(b.unit().file(), 0L);
          if (b.fileDone()) {
            done += size;
            changed += fileChanged ? 1 : 0;
            fileDone = 0;
            fileChanged = false;
            listener.progress(done, total, b.unit().file());
          } else {
            listener.progress(done + Math.min(fileDone, size), total, b.unit().file());
          }
        }
      }
    } finally {
      parser.interrupt();
    }
    return new ImportReport(units.size(), changed, bytes, records, problems, ignored);
  }

  private static void parseAll(List<SourceUnit> units, Map<SourceUnit, Cursor> cursors,
      Map<SourceUnit, String> conflicts, ParseAhead<Work> queue) {
    try {
      for (SourceUnit unit : units) {
        String owner = conflicts.get(unit);
        if (owner != null) {
          put(queue, new Skip(unit, new LineProblem(unit.key(), 0,
              "skipped: session id " + unit.sessionId() + " is already imported from " + owner)));
          continue;
        }
        ProviderAdapter adapter = ProviderAdapter.of(unit.provider());
        Cursor cursor = cursors.get(unit);
        while (true) {
          ParseResult r = adapter.parse(unit, cursor);
          boolean last = r.atEnd() || r.bytesRead() == 0;
          put(queue, new Batch(unit, r, last));
          cursor = r.next();
          if (last) {
            break;
          }
        }
      }
      put(queue, new End());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      try {
        put(queue, new Failure(e));
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void put(ParseAhead<Work> q, Work w) throws InterruptedException {
    q.put(w, ITEM_BYTES + (w instanceof Batch b ? b.result().bytesRead() : 0));
  }

  private static Work take(ParseAhead<Work> q) {
    try {
      return q.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TranscriptException(TranscriptException.Reason.STORE_FAILURE, "the import was interrupted", e);
    }
  }

  private static long sizeOf(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0;
    }
  }

  private static List<SourceUnit> units(ProviderAdapter adapter, Path root) {
    if (!Files.exists(root)) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          root + " does not exist or is not a directory");
    }
    try {
      return adapter.discover(root);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot list " + root + ": " + e.getMessage(), e);
    }
  }
}
