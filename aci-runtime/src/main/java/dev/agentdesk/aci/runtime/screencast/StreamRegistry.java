package dev.agentdesk.aci.runtime.screencast;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runtime-wide memory of ended streams for {@code resume_stream}: a stream's id and the seq its
 * next frame would have had, kept for {@value #TTL_SECONDS} s and at most {@value #MAX_ENTRIES}
 * entries (the oldest goes first), as in the reference runtime. Shared by every connection, so a
 * client that reconnects can continue its stream.
 */
public final class StreamRegistry {
  public static final int MAX_ENTRIES = 64;
  public static final long TTL_SECONDS = 60;

  private final LongSupplier nanoClock;
  private final Map<String, Parked> entries = new LinkedHashMap<>();

  private record Parked(long nextSeq, long parkedAtNanos) {}

  public StreamRegistry() {
    this(System::nanoTime);
  }

  StreamRegistry(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /** Remembers an ended stream; parking the same id again refreshes it. */
  synchronized void park(String id, long nextSeq) {
    entries.remove(id);
    entries.put(id, new Parked(nextSeq, nanoClock.getAsLong()));
    Iterator<String> oldest = entries.keySet().iterator();
    while (entries.size() > MAX_ENTRIES) {
      oldest.next();
      oldest.remove();
    }
  }

  /** The next seq of a live entry, which is removed (a stream is resumed once); empty when gone. */
  synchronized OptionalLong claim(String id) {
    Parked p = entries.remove(id);
    if (p == null || nanoClock.getAsLong() - p.parkedAtNanos() > TimeUnit.SECONDS.toNanos(TTL_SECONDS)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(p.nextSeq());
  }
}
