package dev.agentdesk.aci.runtime.atspi.internal;

import dev.agentdesk.aci.runtime.atspi.Bbox;
import dev.agentdesk.aci.runtime.atspi.WalkLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.freedesktop.dbus.types.UInt32;

/**
 * Walks the accessibility tree of the application that owns the active window (every
 * application when no window is active), breadth first and pipelined: all calls for one level
 * are written before any reply is awaited, so a level costs about one round trip instead of one
 * per call. Only showing elements (and their showing descendants) are kept.
 *
 * <p>With the event cache ({@link NodeCache}) an accessible that no event touched since the
 * last complete walk is taken from the cache without a call; only its extents are re-read when a
 * window or an ancestor moved. The walk's shape, limits and results are the same either way.
 *
 * <p>Bounds: a per-call timeout measured from when the walk started waiting for that reply (an
 * application that stops answering is marked hung and skipped for the rest of the walk), a
 * total walk deadline, a node cap counting every visited accessible and a depth cap.
 */
public final class TreeWalker {
  static final String REGISTRY = "org.a11y.atspi.Registry";
  static final String ROOT = "/org/a11y/atspi/accessible/root";
  private static final Set<String> TEXT_VALUE_ROLES =
      Set.of("text", "entry", "password text", "terminal", "spin button", "combo box");

  private final A11yBus bus;
  private final WalkLimits limits;
  private final Set<String> hungBuses = new HashSet<>();
  private final boolean useCache;
  private int timeouts;

  /** A walk that asks the applications for everything (the uncached path). */
  public TreeWalker(A11yBus bus, WalkLimits limits) {
    this(bus, limits, false);
  }

  /** {@code useCache}: take unchanged accessibles from the connection's {@link NodeCache}. */
  public TreeWalker(A11yBus bus, WalkLimits limits, boolean useCache) {
    this.bus = bus;
    this.limits = limits;
    this.useCache = useCache;
  }

  private static final class Builder {
    final NodeId id;
    final int parent;
    final int depth;
    String role = "";
    String name = "";
    String description = "";
    long states;
    List<String> interfaces = List.of();
    Bbox bbox = Bbox.NONE;
    List<String> actions = List.of();
    Optional<String> value = Optional.empty();
    List<NodeId> children = List.of();
    boolean basicOk;
    boolean rolesOk;
    /** A call for this node failed: what it holds is not worth caching. */
    boolean partial;
    /** Actions and value were read (or came from a cache entry that had them). */
    boolean detailed;
    /** The boxes below this node must be re-read: it moved, or an event said its subtree did. */
    boolean subtreeMoved;
    final boolean parentMoved;
    final NodeId parentId;

    Builder(NodeId id, int parent, int depth, NodeId parentId, boolean parentMoved) {
      this.id = id;
      this.parent = parent;
      this.depth = depth;
      this.parentId = parentId;
      this.parentMoved = parentMoved;
    }

    void fill(NodeCache.Entry c) {
      role = c.role();
      name = c.name();
      description = c.description();
      states = c.states();
      interfaces = c.interfaces();
      bbox = c.bbox();
      actions = c.actions();
      value = c.value();
      children = c.children();
      detailed = c.detailed();
      basicOk = true;
      rolesOk = true;
    }

    NodeCache.Entry entry() {
      return new NodeCache.Entry(parentId, role, name, description, states, interfaces, bbox,
          actions, value, children, detailed);
    }

    boolean ifc(String shortName) {
      return interfaces.contains("org.a11y.atspi." + shortName);
    }

    RawNode build() {
      // The role stays as AT-SPI names it ("push button"): peers and SDKs match on that form.
      return new RawNode(id, parent, depth, role, name, description, states, interfaces, bbox,
          actions, value);
    }
  }

  @FunctionalInterface
  private interface OnReply {
    void accept(Object[] reply) throws BusCallException;
  }

  /** A batch of calls sent together and then awaited in order. */
  private final class Round {
    private final List<A11yBus.Pending> pending = new ArrayList<>();
    private final List<OnReply> handlers = new ArrayList<>();
    private final List<Runnable> onFail = new ArrayList<>();

    void add(NodeId id, String iface, String member, String sig, OnReply ok, Runnable fail,
        Object... args) throws BusCallException {
      if (hungBuses.contains(id.bus())) {
        if (fail != null) {
          fail.run();
        }
        return;
      }
      pending.add(bus.send(id.bus(), id.path(), iface, member, sig, args));
      handlers.add(ok);
      onFail.add(fail);
    }

    void run(long deadlineNanos) throws BusCallException {
      long perCall = limits.perCall().toNanos();
      for (int i = 0; i < pending.size(); i++) {
        A11yBus.Pending p = pending.get(i);
        String dest = p.call().getDestination();
        long now = System.nanoTime();
        long deadline = hungBuses.contains(dest) ? now
            : Math.min(deadlineNanos, Math.max(now, p.sentNanos()) + perCall);
        try {
          handlers.get(i).accept(bus.await(p, deadline));
        } catch (BusCallException e) {
          if (e.kind() == BusCallException.Kind.DISCONNECTED) {
            throw e;
          }
          if (e.kind() == BusCallException.Kind.TIMEOUT) {
            timeouts++;
            hungBuses.add(dest);
          }
          if (onFail.get(i) != null) {
            onFail.get(i).run();
          }
        }
      }
    }
  }

  public WalkResult walk(long deadlineNanos) throws BusCallException {
    if (!useCache) {
      return walk(deadlineNanos, null);
    }
    NodeCache cache = bus.cache();
    synchronized (cache) {
      try {
        return walk(deadlineNanos, cache);
      } catch (BusCallException | RuntimeException e) {
        cache.discard("the last walk failed: " + e.getMessage());
        throw e;
      }
    }
  }

  private WalkResult walk(long deadlineNanos, NodeCache cache) throws BusCallException {
    List<String> notes = new ArrayList<>();
    long perCallMs = limits.perCall().toMillis();
    List<NodeId> apps;
    try {
      A11yBus.Pending listing = bus.send(REGISTRY, ROOT, A11yBus.ACCESSIBLE, "GetChildren", null);
      A11yBus.Pending listeners = cache == null ? null : bus.askRegisteredEvents();
      apps = Decode.nodeIds(bus.await(listing, listing.sentNanos() + perCallMs * 1_000_000)[0]);
      if (listeners != null) {
        Object[] registered;
        try {
          registered = bus.await(listeners, listeners.sentNanos() + perCallMs * 1_000_000);
        } catch (BusCallException e) {
          if (e.kind() == BusCallException.Kind.DISCONNECTED) {
            throw e;
          }
          // A registry that cannot list its listeners: the Deregistered signal still tells.
          registered = null;
        }
        if (registered != null) {
          bus.checkSubscription(registered, perCallMs * 4);
        }
      }
    } catch (BusCallException e) {
      if (e.kind() == BusCallException.Kind.DISCONNECTED) {
        throw e;
      }
      throw new BusCallException(e.kind(), "the AT-SPI registry did not list applications: "
          + e.getMessage());
    }
    if (apps.size() > limits.appCap()) {
      notes.add("app cap " + limits.appCap() + " reached (" + apps.size()
          + " applications registered)");
      apps = apps.subList(0, limits.appCap());
    }

    // Discovery: each application's name and top-level windows, then which window is active.
    Map<NodeId, String> appNames = new LinkedHashMap<>();
    Map<NodeId, List<NodeId>> windows = new LinkedHashMap<>();
    Round discover = new Round();
    for (NodeId app : apps) {
      if (app.isNull()) {
        continue;
      }
      discover.add(app, A11yBus.PROPERTIES, "Get", "ss",
          r -> appNames.put(app, Decode.string(r[0])), null, A11yBus.ACCESSIBLE, "Name");
      discover.add(app, A11yBus.ACCESSIBLE, "GetChildren", null,
          r -> windows.put(app, Decode.nodeIds(r[0])), null);
    }
    discover.run(deadlineNanos);
    NodeId activeApp = null;
    NodeId activeWindow = null;
    Round active = new Round();
    List<NodeId[]> activeHits = new ArrayList<>();
    for (Map.Entry<NodeId, List<NodeId>> e : windows.entrySet()) {
      for (NodeId w : e.getValue()) {
        active.add(w, A11yBus.ACCESSIBLE, "GetState", null, r -> {
          if (AtspiStates.has(AtspiStates.fromWords(Decode.numbers(r[0])), AtspiStates.ACTIVE)) {
            activeHits.add(new NodeId[] {e.getKey(), w});
          }
        }, null);
      }
    }
    active.run(deadlineNanos);
    if (!activeHits.isEmpty()) {
      // Without a window manager several applications may each believe their window is
      // active; the most recently registered one (last in the registry) is the newest window.
      NodeId[] hit = activeHits.get(activeHits.size() - 1);
      activeApp = hit[0];
      activeWindow = hit[1];
    }

    NodeCache.View view = null;
    if (cache != null) {
      // Every application answered a call above, so the events it sent before are on their way
      // in front of those replies; the barrier makes sure they have been handled.
      bus.sync(Math.min(deadlineNanos, System.nanoTime() + limits.perCall().toNanos()));
      view = cache.begin();
    }

    List<Builder> all = new ArrayList<>();
    List<Builder> visitedOk = new ArrayList<>();
    List<Builder> level = new ArrayList<>();
    int visited = 0;
    boolean nodeCapHit = false;
    for (Map.Entry<NodeId, List<NodeId>> e : windows.entrySet()) {
      if (activeApp != null && !e.getKey().equals(activeApp)) {
        continue;
      }
      for (NodeId w : e.getValue()) {
        if (visited >= limits.nodeCap()) {
          nodeCapHit = true;
          break;
        }
        level.add(new Builder(w, -1, 1, null, false));
        visited++;
      }
    }

    boolean depthCapHit = false;
    boolean budgetHit = false;
    List<Builder> needDetails = new ArrayList<>();
    while (!level.isEmpty() || !needDetails.isEmpty()) {
      if (System.nanoTime() >= deadlineNanos) {
        budgetHit = true;
        break;
      }
      Round round = new Round();
      for (Builder b : needDetails) {
        addDetailCalls(round, b);
      }
      for (Builder b : level) {
        NodeCache.Entry cached = view == null ? null : view.clean(b.id);
        if (cached != null) {
          b.fill(cached);
          b.subtreeMoved = b.parentMoved || view.subtreeMoved(b.id);
          if (b.subtreeMoved || b.depth == 1) {
            // A window may have moved without telling anyone; so may everything in a subtree
            // that an event said moved.
            addExtentsCall(round, b, cached.bbox());
          }
        } else {
          NodeCache.Entry before = view == null ? null : view.previous(b.id);
          b.subtreeMoved = view != null && (b.parentMoved || view.subtreeMoved(b.id));
          addBasicCalls(round, b, before == null ? null : before.bbox());
        }
      }
      round.run(deadlineNanos);
      needDetails = new ArrayList<>();
      List<Builder> next = new ArrayList<>();
      for (Builder b : level) {
        if (b.basicOk) {
          visitedOk.add(b);
        }
        if (!b.basicOk || !AtspiStates.has(b.states, AtspiStates.SHOWING)) {
          continue;
        }
        int index = all.size();
        all.add(b);
        if (!b.detailed) {
          needDetails.add(b);
        }
        if (b.children.isEmpty()) {
          continue;
        }
        if (b.depth >= limits.depthCap()) {
          depthCapHit = true;
          continue;
        }
        for (NodeId child : b.children) {
          if (child.isNull()) {
            continue;
          }
          if (visited >= limits.nodeCap()) {
            nodeCapHit = true;
            break;
          }
          visited++;
          next.add(new Builder(child, index, b.depth + 1, b.id, b.subtreeMoved));
        }
      }
      level = next;
    }
    if (System.nanoTime() >= deadlineNanos && !budgetHit) {
      budgetHit = timeouts > 0;
    }

    if (nodeCapHit) {
      notes.add("node cap " + limits.nodeCap() + " reached: the tree was cut after "
          + visited + " visited accessibles");
    }
    if (depthCapHit) {
      notes.add("depth cap " + limits.depthCap() + " reached: deeper elements were not walked");
    }
    if (budgetHit) {
      notes.add("walk budget " + limits.walkBudget().toMillis()
          + " ms exhausted: the tree is incomplete");
    }
    if (timeouts > 0) {
      notes.add(timeouts + " AT-SPI call(s) timed out after " + perCallMs
          + " ms; unresponsive application(s) skipped");
    }

    if (cache != null) {
      if (notes.isEmpty()) {
        Map<NodeId, NodeCache.Entry> keep = new java.util.HashMap<>();
        for (Builder b : visitedOk) {
          if (!b.partial) {
            keep.put(b.id, b.entry());
          }
        }
        cache.store(keep);
      } else {
        cache.discard("the last walk was incomplete");
      }
    }

    List<RawNode> nodes = preOrder(all);
    String appName = activeApp == null ? "(all applications)"
        : appNames.getOrDefault(activeApp, "");
    String windowName = "";
    String windowRole = "";
    if (activeWindow != null) {
      for (RawNode n : nodes) {
        if (n.id().equals(activeWindow)) {
          windowName = n.name();
          windowRole = n.role();
          break;
        }
      }
    }
    return new WalkResult(appName, windowName, windowRole, nodes, notes, notes.isEmpty());
  }

  /**
   * The walk visits level by level; the text wants each element followed by its subtree. This
   * reorders the kept nodes depth first (children in the application's order) and renumbers the
   * parent indices to match.
   */
  private static List<RawNode> preOrder(List<Builder> bfs) {
    List<List<Integer>> children = new ArrayList<>(bfs.size());
    List<Integer> roots = new ArrayList<>();
    for (int i = 0; i < bfs.size(); i++) {
      children.add(new ArrayList<>());
      int parent = bfs.get(i).parent;
      if (parent < 0) {
        roots.add(i);
      } else {
        children.get(parent).add(i);
      }
    }
    List<RawNode> out = new ArrayList<>(bfs.size());
    int[] newIndex = new int[bfs.size()];
    java.util.ArrayDeque<Integer> stack = new java.util.ArrayDeque<>();
    for (int r = roots.size() - 1; r >= 0; r--) {
      stack.push(roots.get(r));
    }
    while (!stack.isEmpty()) {
      int i = stack.pop();
      Builder b = bfs.get(i);
      newIndex[i] = out.size();
      RawNode n = b.build();
      int parent = b.parent < 0 ? -1 : newIndex[b.parent];
      out.add(new RawNode(n.id(), parent, n.depth(), n.role(), n.name(), n.description(),
          n.states(), n.interfaces(), n.bbox(), n.actions(), n.value()));
      List<Integer> kids = children.get(i);
      for (int k = kids.size() - 1; k >= 0; k--) {
        stack.push(kids.get(k));
      }
    }
    return out;
  }

  private void addBasicCalls(Round round, Builder b, Bbox before) throws BusCallException {
    NodeId id = b.id;
    Runnable partial = () -> b.partial = true;
    round.add(id, A11yBus.PROPERTIES, "GetAll", "s", r -> {
      Map<?, ?> props = Decode.map(r[0]);
      b.name = cap(textProp(props, "Name"));
      b.description = cap(textProp(props, "Description"));
    }, partial, A11yBus.ACCESSIBLE);
    round.add(id, A11yBus.ACCESSIBLE, "GetRoleName", null, r -> {
      b.role = Decode.string(r[0]);
      b.rolesOk = true;
    }, partial);
    round.add(id, A11yBus.ACCESSIBLE, "GetState", null, r -> {
      b.states = AtspiStates.fromWords(Decode.numbers(r[0]));
      b.basicOk = b.rolesOk;
    }, partial);
    round.add(id, A11yBus.ACCESSIBLE, "GetInterfaces", null,
        r -> b.interfaces = Decode.strings(r[0]), partial);
    addExtentsCall(round, b, before);
    round.add(id, A11yBus.ACCESSIBLE, "GetChildren", null,
        r -> b.children = Decode.nodeIds(r[0]), partial);
  }

  /**
   * Reads the node's box. When it differs from {@code before} (or nothing was known), the boxes
   * of the node's subtree are re-read too: children move with their parent without an event.
   */
  private void addExtentsCall(Round round, Builder b, Bbox before) throws BusCallException {
    round.add(b.id, "org.a11y.atspi.Component", "GetExtents", "u", r -> {
      List<Object> s = Decode.struct(r[0]);
      if (s.size() == 4) {
        b.bbox = new Bbox((int) Decode.number(s.get(0)), (int) Decode.number(s.get(1)),
            (int) Decode.number(s.get(2)), (int) Decode.number(s.get(3)));
      }
      if (!b.bbox.equals(before)) {
        b.subtreeMoved = true;
      }
    }, () -> {
      b.bbox = Bbox.NONE;
      b.partial = true;
      b.subtreeMoved = true;
    }, new UInt32(0));
  }

  private void addDetailCalls(Round round, Builder b) throws BusCallException {
    b.detailed = true;
    Runnable partial = () -> b.partial = true;
    if (b.ifc("Action")) {
      round.add(b.id, "org.a11y.atspi.Action", "GetActions", null, r -> {
        List<String> names = new ArrayList<>();
        for (Object a : Decode.list(r[0])) {
          List<Object> s = Decode.struct(a);
          // Some widgets list unnamed actions; a name is what invoke_action takes.
          if (!s.isEmpty() && !Decode.string(s.get(0)).isBlank()) {
            names.add(Decode.string(s.get(0)));
          }
        }
        b.actions = names;
      }, partial);
    }
    if (b.ifc("EditableText") || (b.ifc("Text") && TEXT_VALUE_ROLES.contains(b.role))) {
      round.add(b.id, "org.a11y.atspi.Text", "GetText", "ii",
          r -> b.value = Optional.of(cap(Decode.string(r[0]))), partial, 0, -1);
    } else if (b.ifc("Value")) {
      round.add(b.id, A11yBus.PROPERTIES, "Get", "ss",
          r -> b.value = Optional.of(formatNumber(Decode.real(r[0]))), partial,
          "org.a11y.atspi.Value", "CurrentValue");
    }
  }

  private static String textProp(Map<?, ?> props, String key) throws BusCallException {
    Object v = props.get(key);
    return v == null ? "" : Decode.string(v);
  }

  private String cap(String s) {
    int max = limits.textCap();
    if (s.length() <= max) {
      return s;
    }
    int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
    return s.substring(0, end) + "\u2026";
  }

  /** Whole numbers without a fraction, others in their shortest round-tripping form. */
  public static String formatNumber(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
