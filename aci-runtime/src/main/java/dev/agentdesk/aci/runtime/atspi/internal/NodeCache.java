package dev.agentdesk.aci.runtime.atspi.internal;

import dev.agentdesk.aci.runtime.atspi.Bbox;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the last complete walk learnt about each accessible, kept until an AT-SPI event says it
 * changed. One cache per bus connection (a reconnect starts empty), shared by every session of
 * the engine: the entries hold no refs, only what the application answered.
 *
 * <p>Two threads touch it. The connection's single signal thread calls {@link #onObjectEvent},
 * {@link #onWindowEvent} and {@link #invalidateAll}: it only adds to the concurrent dirty sets
 * and sets the lost flag. The walking thread, holding this object's monitor, reads and replaces
 * {@link #entries} in {@link #begin} and {@link #store}; nothing else reads them.
 *
 * <p>What an event invalidates: any {@code org.a11y.atspi.Event.Object} signal except
 * {@code BoundsChanged} makes its source fully dirty (re-read all six basic properties and the
 * details); {@code BoundsChanged} and every {@code Event.Window} signal make the extents of the
 * source's whole subtree stale (a widget with its own GdkWindow moves its children without
 * reallocating them, so they send no event of their own); a change on a scroll bar makes the
 * extents under the scroll bar's parent stale (scrolling moves the content, not its allocation).
 */
public final class NodeCache {
  /** One accessible as last read. {@code detailed}: actions and value were read too. */
  record Entry(NodeId parent, String role, String name, String description, long states,
      List<String> interfaces, Bbox bbox, List<String> actions, Optional<String> value,
      List<NodeId> children, boolean detailed) {}

  private static final String SCROLL_BAR = "scroll bar";

  private Map<NodeId, Entry> entries = Map.of();
  private final Set<NodeId> dirty = ConcurrentHashMap.newKeySet();
  private final Set<NodeId> boundsDirty = ConcurrentHashMap.newKeySet();
  private final AtomicReference<String> lost = new AtomicReference<>("nothing walked yet");
  private long fullWalks;
  private long cachedWalks;

  /** A change event on one accessible ({@code Event.Object}). */
  void onObjectEvent(String member, NodeId source) {
    if ("BoundsChanged".equals(member)) {
      boundsDirty.add(source);
    } else {
      dirty.add(source);
    }
  }

  /** A window event (activate, create, move, resize, …): the window and its boxes. */
  void onWindowEvent(NodeId source) {
    dirty.add(source);
    boundsDirty.add(source);
  }

  /** Events may have been missed: the next walk asks the applications for everything. */
  void invalidateAll(String why) {
    lost.set(why);
  }

  /**
   * What one walk may take from the cache: a clean entry, or {@code null} when the accessible is
   * unknown or an event touched it since it was read. Taking the view consumes the events seen so
   * far; events that arrive during the walk stay for the next one.
   */
  final class View {
    private final Map<NodeId, Entry> clean;
    private final Map<NodeId, Entry> previous;
    private final Set<NodeId> movedSubtrees;

    private View(Map<NodeId, Entry> clean, Map<NodeId, Entry> previous,
        Set<NodeId> movedSubtrees) {
      this.clean = clean;
      this.previous = previous;
      this.movedSubtrees = movedSubtrees;
    }

    Entry clean(NodeId id) {
      return clean.get(id);
    }

    /** The entry as last read, dirty or not (to tell whether a re-read box moved). */
    Entry previous(NodeId id) {
      return previous.get(id);
    }

    /** Whether the extents of {@code id}'s subtree must be re-read. */
    boolean subtreeMoved(NodeId id) {
      return movedSubtrees.contains(id);
    }
  }

  /** Starts a walk (the caller holds this monitor until {@link #store} or {@link #discard}). */
  View begin() {
    Set<NodeId> touched = new HashSet<>(dirty);
    dirty.removeAll(touched);
    Set<NodeId> moved = new HashSet<>(boundsDirty);
    boundsDirty.removeAll(moved);
    String why = lost.getAndSet(null);
    if (why != null) {
      fullWalks++;
      return new View(Map.of(), Map.of(), Set.of());
    }
    cachedWalks++;
    Map<NodeId, Entry> clean = new HashMap<>(entries);
    for (NodeId id : touched) {
      Entry e = clean.remove(id);
      if (e != null && SCROLL_BAR.equals(e.role()) && e.parent() != null) {
        moved.add(e.parent());
      }
    }
    return new View(clean, entries, moved);
  }

  /** Keeps what a complete walk read; everything it did not reach is forgotten. */
  void store(Map<NodeId, Entry> walked) {
    entries = Map.copyOf(walked);
  }

  /** An incomplete or failed walk: the next one starts from nothing. */
  void discard(String why) {
    entries = Map.of();
    lost.set(why);
  }

  /** Walks that read everything / walks that used the cache, since the connection opened. */
  public synchronized long[] walkCounts() {
    return new long[] {fullWalks, cachedWalks};
  }
}
