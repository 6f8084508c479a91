package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.ObserveSpec;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last screenshot per capture parameters, keyed so that a {@code not_modified} answer is only
 * ever matched with bytes captured the same way (same scope, codec, quality and downscale).
 */
final class FrameCache {
  record Entry(String frameHash, byte[] image, long width, long height) {}

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  private static String key(ObserveSpec levers) {
    return Objects.toString(levers.scope()) + "|" + levers.format() + "|" + levers.quality() + "|"
        + levers.maxLongEdge();
  }

  Entry get(ObserveSpec levers) {
    return entries.get(key(levers));
  }

  void put(ObserveSpec levers, Entry entry) {
    entries.put(key(levers), entry);
  }
}
