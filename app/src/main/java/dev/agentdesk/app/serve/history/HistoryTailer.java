package dev.agentdesk.app.serve.history;

import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.ImportStatus;
import dev.agentdesk.app.serve.ServerEvent;
import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.ImportReport;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports the history folders in the background, then keeps them imported: every folder under a
 * root is watched (inotify through {@link WatchService}), and a change schedules an incremental
 * import a moment later, which reads only what was appended. A slow periodic pass catches what a
 * watch can miss (a root created after start, an overflowed event queue). All imports run on one
 * thread with the tailer's own database connection, so readers are never blocked by it.
 */
final class HistoryTailer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryTailer.class);
  static final long DEBOUNCE_MS = 300;
  static final long SAFETY_PASS_S = 15;
  private static final long PROGRESS_EVERY_MS = 250;

  private final TranscriptHistory writer;
  private final List<Importer.Root> roots;
  private final EventHub events;
  private final Consumer<ImportStatus> statusSink;
  private final String database;
  private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "history-import");
    t.setDaemon(true);
    return t;
  });
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Set<Path> watched = new HashSet<>();
  private WatchService watcher;
  private Thread watchThread;
  private ScheduledFuture<?> pending;
  private volatile ImportStatus status;
  private long lastProgressAt;

  HistoryTailer(TranscriptHistory writer, List<Importer.Root> roots, EventHub events, String database,
      Consumer<ImportStatus> statusSink) {
    this.writer = writer;
    this.roots = List.copyOf(roots);
    this.events = events;
    this.database = database;
    this.statusSink = statusSink;
    this.status = status("idle", 0, 0, 0, 0, null);
  }

  ImportStatus status() {
    return status;
  }

  /** The first full import, then watching; returns at once. */
  void start() {
    try {
      watcher = FileSystems.getDefault().newWatchService();
    } catch (IOException e) {
      LOG.warn("cannot watch the history folders ({}); rescanning every {} s instead", e.getMessage(), SAFETY_PASS_S);
    }
    worker.execute(() -> runImport(true));
    worker.scheduleWithFixedDelay(() -> runImport(false), SAFETY_PASS_S, SAFETY_PASS_S, TimeUnit.SECONDS);
    if (watcher != null) {
      watchThread = new Thread(this::watchLoop, "history-watch");
      watchThread.setDaemon(true);
      watchThread.start();
    }
  }

  /** Asks for an incremental import soon; bursts of requests become one import. */
  synchronized void requestImport() {
    if (closed.get()) {
      return;
    }
    if (pending == null || pending.isDone()) {
      pending = worker.schedule(() -> runImport(false), DEBOUNCE_MS, TimeUnit.MILLISECONDS);
    }
  }

  private void runImport(boolean first) {
    if (closed.get()) {
      return;
    }
    registerNewFolders();
    int[] files = {0};
    long[] bytes = {0, 0};
    int[] problems = {0};
    String[] lastProblem = {null};
    Set<Path> filesTouched = new HashSet<>();
    if (first) {
      publish(status("scanning", 0, 0, 0, 0, null));
    }
    ImportListener listener = new ImportListener() {
      @Override
      public void started(int fileCount, long byteCount) {
        files[0] = fileCount;
        bytes[1] = byteCount;
        if (first) {
          LOG.info("history: importing {} files ({} KiB)", fileCount, byteCount / 1024);
          publish(status("importing", fileCount, 0, 0, 0, null));
        }
      }

      @Override
      public void progress(long bytesDone, long bytesTotal, Path file) {
        bytes[0] = bytesDone;
        filesTouched.add(file);
        long now = System.currentTimeMillis();
        if (first && now - lastProgressAt >= PROGRESS_EVERY_MS) {
          lastProgressAt = now;
          publish(status("importing", files[0], filesTouched.size(), 0, problems[0], lastProblem[0]));
        }
      }

      @Override
      public void problem(LineProblem problem) {
        problems[0]++;
        lastProblem[0] = problem.toString();
      }
    };
    try {
      ImportReport report = writer.importFrom(existingRoots(), listener);
      int errors = report.problems().size();
      String last = errors == 0 ? null : report.problems().get(errors - 1).toString();
      if (first) {
        LOG.info("history: imported {} files, {} records, {} problems; now watching for changes",
            report.filesSeen(), report.records(), errors);
      }
      ImportStatus previous = status;
      publish(status("tailing", report.filesSeen(), report.filesSeen(),
          (first ? 0 : previous.records()) + report.records(),
          (first ? 0 : previous.errors()) + errors, last != null ? last : previous.last_error()));
      if (report.records() > 0 || report.filesChanged() > 0) {
        events.publish(new ServerEvent.HistoryChanged(List.of()));
      }
    } catch (RuntimeException e) {
      LOG.warn("history import failed: {}", e.getMessage());
      publish(status("failed", files[0], filesTouched.size(), status.records(), status.errors() + 1, e.getMessage()));
    }
  }

  /** The roots that exist: folders, and single files (Aider's history named by its path). */
  private List<Importer.Root> existingRoots() {
    return roots.stream().filter(r -> Files.exists(r.path())).toList();
  }

  private void publish(ImportStatus s) {
    status = s;
    statusSink.accept(s);
    events.publish(new ServerEvent.ImportProgress(s));
  }

  private ImportStatus status(String phase, int total, int done, long records, int errors, String lastError) {
    List<ImportStatus.Root> rs = roots.stream()
        .map(r -> new ImportStatus.Root(r.provider().id(), r.path().toString(), Files.exists(r.path())))
        .toList();
    return new ImportStatus(phase, rs, total, done, records, errors, lastError, database);
  }

  /** Watches every folder under every existing root that is not watched yet. */
  private void registerNewFolders() {
    if (watcher == null) {
      return;
    }
    for (Importer.Root root : existingRoots()) {
      if (Files.isRegularFile(root.path())) {
        if (root.path().toAbsolutePath().getParent() != null) {
          watch(root.path().toAbsolutePath().getParent());
        }
        continue;
      }
      // A provider whose files are searched for among other files (Aider's in projects) is watched
      // only as deep as it is searched.
      int depth = ProviderAdapter.of(root.provider()).searchDepth();
      try (Stream<Path> dirs = Files.walk(root.path(), depth)) {
        dirs.filter(Files::isDirectory).forEach(this::watch);
      } catch (IOException | RuntimeException e) {
        LOG.debug("cannot walk {}: {}", root.path(), e.toString());
      }
    }
  }

  private void watch(Path dir) {
    synchronized (watched) {
      if (watched.contains(dir)) {
        return;
      }
      try {
        dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
            StandardWatchEventKinds.ENTRY_DELETE);
        watched.add(dir);
      } catch (IOException | ClosedWatchServiceException e) {
        LOG.debug("cannot watch {}: {}", dir, e.toString());
      }
    }
  }

  private void watchLoop() {
    while (!closed.get()) {
      WatchKey key;
      try {
        key = watcher.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      Path dir = (Path) key.watchable();
      for (var event : key.pollEvents()) {
        if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && event.context() instanceof Path name
            && Files.isDirectory(dir.resolve(name))) {
          // A new project or day folder: watch it before its first file is written.
          watch(dir.resolve(name));
        }
      }
      if (!key.reset()) {
        synchronized (watched) {
          watched.remove(dir);
        }
      }
      requestImport();
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    worker.shutdownNow();
    try {
      if (watcher != null) {
        watcher.close();
      }
    } catch (IOException e) {
      LOG.debug("closing the watcher: {}", e.toString());
    }
    try {
      worker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    writer.close();
  }
}
