package dev.agentdesk.aci.runtime.atspi.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A session's element refs: {@code e<N>} minted from a counter that only goes up, one per
 * accessible identity (bus name + object path). An identity that disappears is evicted, so if the
 * same path ever came back it would get a fresh ref; a number is never handed out twice.
 */
public final class RefTable {
  private final Map<NodeId, String> refs = new HashMap<>();
  private long next = 1;

  public String refFor(NodeId id) {
    return refs.computeIfAbsent(id, k -> "e" + next++);
  }

  /** Evicts every identity not in {@code live}. */
  public void retainOnly(Set<NodeId> live) {
    refs.keySet().retainAll(live);
  }

  public int size() {
    return refs.size();
  }
}
