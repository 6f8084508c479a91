package dev.agentdesk.aci.runtime.atspi.internal;

import java.util.List;

/**
 * A finished walk: the showing nodes in breadth-first order (parents before children), what it
 * was rooted at, and every limit it ran into.
 *
 * @param appName the walked application's name, or {@code (all applications)}
 * @param windowName the active window's name, empty when no window is active
 * @param windowRole the active window's role, empty when no window is active
 * @param complete whether every node was reached (no cap, budget or timeout cut the walk); refs
 *     of nodes missing from an incomplete walk are not evicted
 */
public record WalkResult(
    String appName,
    String windowName,
    String windowRole,
    List<RawNode> nodes,
    List<String> limitsHit,
    boolean complete) {

  public WalkResult {
    nodes = List.copyOf(nodes);
    limitsHit = List.copyOf(limitsHit);
  }
}
