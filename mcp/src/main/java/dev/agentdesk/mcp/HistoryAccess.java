package dev.agentdesk.mcp;

import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.cost.PriceFiles;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The history the tools read: one {@link TranscriptHistory} (single-threaded, so calls take turns
 * under a lock) and the price table, read once. Both {@code agentdesk serve} and
 * {@code agentdesk mcp} open the database themselves and hand it here; closing this closes it.
 */
public final class HistoryAccess implements AutoCloseable {
  private final TranscriptHistory history;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile PriceFiles.Loaded prices;

  private HistoryAccess(TranscriptHistory history) {
    this.history = history;
  }

  /** Tools over {@code history}, which this now owns. */
  public static HistoryAccess over(TranscriptHistory history) {
    return new HistoryAccess(history);
  }

  /** Runs one query; the transcripts module's errors become {@link PortException}s. */
  <T> T read(Function<TranscriptHistory, T> query) {
    lock.lock();
    try {
      return query.apply(history);
    } catch (TranscriptException e) {
      throw translate(e);
    } finally {
      lock.unlock();
    }
  }

  PriceFiles.Loaded prices() {
    PriceFiles.Loaded p = prices;
    if (p == null) {
      prices = p = PriceFiles.fromEnvironment().load();
    }
    return p;
  }

  static PortException translate(TranscriptException e) {
    PortException.Reason reason = switch (e.reason()) {
      case UNKNOWN_SESSION -> PortException.Reason.NOT_FOUND;
      case BAD_QUERY -> PortException.Reason.BAD_ARGUMENTS;
      case DELTA_SESSION, INCOMPLETE_STREAM -> PortException.Reason.CONFLICT;
      default -> PortException.Reason.UNAVAILABLE;
    };
    return new PortException(reason, e.getMessage(), e);
  }

  @Override
  public void close() {
    lock.lock();
    try {
      history.close();
    } finally {
      lock.unlock();
    }
  }
}
