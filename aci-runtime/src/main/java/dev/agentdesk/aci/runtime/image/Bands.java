package dev.agentdesk.aci.runtime.image;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs per-row image work on horizontal bands in parallel: the caller's thread takes the first
 * band and a small daemon pool (one thread fewer than the cores, at most three) the rest. Pixel
 * passes over a full screen (BGRA→RGB, PNG filtering + deflate) are memory-bound loops that scale
 * with cores, and a screenshot's latency is what an agent waits for between steps.
 */
public final class Bands {
  /** How many bands a large image is cut into: one per core, at most four. */
  public static final int MAX_BANDS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
  private static final ExecutorService POOL = Executors.newFixedThreadPool(Math.max(1, MAX_BANDS - 1), r -> {
    Thread t = new Thread(r, "image-band");
    t.setDaemon(true);
    return t;
  });

  private Bands() {}

  /** Work on rows [first, last) of band {@code index}; returns that band's result. */
  @FunctionalInterface
  public interface Task<T> {
    T run(int index, int first, int last);
  }

  /**
   * How many bands to cut {@code rows} rows of {@code bytesPerRow} bytes into: one when the image is
   * smaller than {@code minBytes} (a hand-off costs more than it saves), else {@link #MAX_BANDS}.
   */
  public static int count(int rows, long bytesPerRow, long minBytes) {
    return rows * bytesPerRow < minBytes ? 1 : Math.min(MAX_BANDS, rows);
  }

  /**
   * Runs {@code task} on at most {@code bands} contiguous, non-empty row ranges covering [0, rows)
   * and returns the results in band order.
   */
  public static <T> List<T> run(int rows, int bands, Task<T> task) {
    if (rows <= 0) {
      return List.of();
    }
    int per = (rows + Math.max(1, bands) - 1) / Math.max(1, bands);
    int n = (rows + per - 1) / per;
    List<Future<T>> futures = new ArrayList<>(n);
    for (int b = 1; b < n; b++) {
      int index = b;
      int first = b * per;
      int last = Math.min(rows, first + per);
      futures.add(POOL.submit(() -> task.run(index, first, last)));
    }
    // Every band finishes before this returns, even when the caller is interrupted or a band
    // fails: the bands read memory the caller frees right after (an XImage, a shared segment).
    List<T> results = new ArrayList<>(n);
    Throwable failure = null;
    try {
      results.add(task.run(0, 0, Math.min(rows, per)));
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    boolean interrupted = false;
    for (Future<T> f : futures) {
      while (true) {
        try {
          results.add(f.get());
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          if (failure == null) {
            Throwable cause = e.getCause();
            failure = cause instanceof RuntimeException || cause instanceof Error ? cause
                : new IllegalStateException("parallel image pass failed", cause);
          }
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure != null) {
      throw (RuntimeException) failure;
    }
    return results;
  }
}
