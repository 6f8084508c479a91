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
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Finds transcript files under provider roots and brings the store up to date with them, batch by
 * batch from each file's cursor. Running it again only reads what was appended.
 */
public final class Importer {
  private final TranscriptStore store;

  public Importer(TranscriptStore store) {
    this.store = store;
  }

  /** A provider and the directory (or single file) holding its transcripts. */
  public record Root(Provider provider, Path path) {}

  public ImportReport run(List<Root> roots, ImportListener listener) {
    List<SourceUnit> units = new ArrayList<>();
    long total = 0;
    for (Root root : roots) {
      ProviderAdapter adapter = ProviderAdapter.of(root.provider());
      for (Path f : files(root.path())) {
        Optional<SourceUnit> u = adapter.unitFor(f);
        if (u.isPresent()) {
          units.add(u.get());
          total += sizeOf(f);
        }
      }
    }
    listener.started(units.size(), total);
    List<LineProblem> problems = new ArrayList<>();
    Map<String, Long> ignored = new TreeMap<>();
    long done = 0;
    long bytes = 0;
    long records = 0;
    int changed = 0;
    for (SourceUnit unit : units) {
      String path = unit.file().toAbsolutePath().normalize().toString();
      Optional<String> owner = store.sessionOwner(unit.sessionId());
      if (owner.isPresent() && !owner.get().equals(path)) {
        LineProblem p = new LineProblem(path, 0, "skipped: session id " + unit.sessionId()
            + " is already imported from " + owner.get());
        problems.add(p);
        listener.problem(p);
        done += sizeOf(unit.file());
        continue;
      }
      ProviderAdapter adapter = ProviderAdapter.of(unit.provider());
      Cursor cursor = store.cursor(unit.file()).orElse(null);
      boolean fileChanged = false;
      long fileDone = 0;
      while (true) {
        ParseResult r = adapter.parse(unit, cursor);
        boolean restarted = r.records().stream().anyMatch(x -> x instanceof dev.agentdesk.transcripts.records.DeleteSessionRecord);
        if (r.bytesRead() > 0 || restarted || cursor == null) {
          store.writeBatch(unit, r);
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
        listener.progress(done + Math.min(fileDone, sizeOf(unit.file())), total, unit.file());
        cursor = r.next();
        if (r.atEnd() || r.bytesRead() == 0) {
          break;
        }
      }
      done += sizeOf(unit.file());
      if (fileChanged) {
        changed++;
      }
      listener.progress(done, total, unit.file());
    }
    return new ImportReport(units.size(), changed, bytes, records, problems, ignored);
  }

  private static long sizeOf(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0;
    }
  }

  private static List<Path> files(Path root) {
    if (Files.isRegularFile(root)) {
      return List.of(root);
    }
    if (!Files.isDirectory(root)) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          root + " does not exist or is not a directory");
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
    } catch (IOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot list " + root + ": " + e.getMessage(), e);
    }
  }
}
