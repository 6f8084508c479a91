package dev.agentdesk.aci.runtime.atspi;

import dev.agentdesk.aci.runtime.atspi.Observation.TreeForm;
import dev.agentdesk.aci.runtime.atspi.StructuredObservationException.Kind;
import dev.agentdesk.aci.runtime.atspi.internal.A11yBus;
import dev.agentdesk.aci.runtime.atspi.internal.AtspiStates;
import dev.agentdesk.aci.runtime.atspi.internal.BusCallException;
import dev.agentdesk.aci.runtime.atspi.internal.Decode;
import dev.agentdesk.aci.runtime.atspi.internal.RawNode;
import dev.agentdesk.aci.runtime.atspi.internal.RefTable;
import dev.agentdesk.aci.runtime.atspi.internal.TreeText;
import dev.agentdesk.aci.runtime.atspi.internal.TreeWalker;
import dev.agentdesk.aci.runtime.atspi.internal.WalkResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/** One session's refs, revisions and diff baseline over the engine's shared bus. */
final class AtspiSession implements StructuredObserver {
  private static final Pattern REF = Pattern.compile("e[1-9][0-9]{0,17}");

  private final AtspiEngine engine;
  private final WalkLimits limits;
  private final RefTable refs = new RefTable();
  private long revision;
  private TreeText.Snapshot baseline;
  private Map<String, AtspiElement> live;

  AtspiSession(AtspiEngine engine) {
    this.engine = engine;
    this.limits = engine.limits();
  }

  @Override
  public synchronized Observation observe(ObserveRequest request) {
    long start = System.nanoTime();
    long requestDeadline = start + limits.request().toNanos();
    A11yBus bus = engine.bus(requestDeadline);
    settle(bus, request.settleMs(), requestDeadline);
    long walkDeadline = Math.min(System.nanoTime() + limits.walkBudget().toNanos(),
        requestDeadline);
    WalkResult walk;
    try {
      walk = new TreeWalker(bus, limits, engine.settings().eventCache()).walk(walkDeadline);
    } catch (BusCallException e) {
      if (e.kind() == BusCallException.Kind.DISCONNECTED) {
        engine.dropConnection(bus);
        throw StructuredObservationException.busUnavailable(e.getMessage(), e);
      }
      Kind reason = e.kind() == BusCallException.Kind.TIMEOUT ? Kind.TIMEOUT
          : Kind.BUS_UNAVAILABLE;
      throw new StructuredObservationException(reason,
          StructuredObservationException.OBSERVE_FAILED_PREFIX + e.getMessage(), e);
    }
    if (System.nanoTime() > requestDeadline) {
      throw new StructuredObservationException(Kind.TIMEOUT,
          StructuredObservationException.OBSERVE_FAILED_PREFIX
              + "structured observation timed out after " + limits.request().toSeconds()
              + "s (settle + walk)");
    }

    List<AtspiElement> elements = mint(walk);
    Optional<String> focus = elements.stream().filter(AtspiElement::focused)
        .map(AtspiElement::ref).findFirst();
    revision++;
    TreeText.Snapshot snapshot = TreeText.snapshot(revision, elements);
    String treeText = null;
    TreeForm form = TreeForm.FULL;
    OptionalLong diffOf = OptionalLong.empty();
    if (request.diff() && baseline != null) {
      List<String> body = TreeText.diffLines(baseline, snapshot);
      if (body.size() <= limits.diffLineBudget()) {
        treeText = TreeText.diff(TreeText.header(walk.appName(), walk.windowName(),
            walk.windowRole(), revision, Optional.of(baseline.revision())), walk.limitsHit(), body,
            baseline.revision(), focus);
        form = TreeForm.DIFF;
        diffOf = OptionalLong.of(baseline.revision());
      }
    }
    if (treeText == null) {
      treeText = TreeText.full(TreeText.header(walk.appName(), walk.windowName(),
          walk.windowRole(), revision, Optional.empty()), walk.limitsHit(), elements, focus);
    }
    baseline = snapshot;
    Map<String, AtspiElement> byRef = new HashMap<>();
    for (AtspiElement e : elements) {
      byRef.put(e.ref(), e);
    }
    live = byRef;
    double captureMs = Math.round((System.nanoTime() - start) / 10_000.0) / 100.0;
    return new Observation(form, treeText, revision, diffOf, focus, captureMs, elements,
        walk.limitsHit());
  }

  /**
   * Waits until no AT-SPI change event arrived for the quiet window, up to the settle cap. The window
   * counts from this request at the earliest: right after an action the application may not have
   * sent its first event yet (typed keys still in its queue), and a window counted from an older
   * event would end at once, on a tree the action has not reached (zenity's entry read "agent-wa" of
   * 14 typed characters that way, now and then, on a loaded machine).
   */
  private void settle(A11yBus bus, int settleMs, long requestDeadline) {
    long quiet = limits.quietWindowFor(settleMs).toNanos();
    if (quiet == 0) {
      return;
    }
    long start = System.nanoTime();
    long end = Math.min(start + limits.settleTotal().toNanos(), requestDeadline);
    while (true) {
      long now = System.nanoTime();
      long sinceEvent = now - Math.max(bus.lastEventNanos(), start);
      if (sinceEvent >= quiet || now >= end) {
        return;
      }
      long sleepNanos = Math.min(quiet - sinceEvent, end - now);
      try {
        Thread.sleep(Math.max(1, sleepNanos / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private List<AtspiElement> mint(WalkResult walk) {
    List<RawNode> nodes = walk.nodes();
    List<AtspiElement> out = new ArrayList<>(nodes.size());
    Set<dev.agentdesk.aci.runtime.atspi.internal.NodeId> seen = new HashSet<>();
    String[] refOf = new String[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      RawNode n = nodes.get(i);
      refOf[i] = refs.refFor(n.id());
      seen.add(n.id());
      Optional<String> parent = n.parent() < 0 ? Optional.empty()
          : Optional.of(refOf[n.parent()]);
      out.add(new AtspiElement(refOf[i], parent, n.depth(), n.role(), n.name(),
          n.description(), n.value(), AtspiStates.names(n.states()), n.actions(),
          n.has(AtspiStates.FOCUSED), n.bbox(), n.id().bus(), n.id().path()));
    }
    if (walk.complete()) {
      refs.retainOnly(seen);
    }
    return out;
  }

  private AtspiElement resolve(String ref) {
    if (live == null) {
      throw StructuredObservationException.stale(
          "no structured observation on this session yet (send an `observe` action first)");
    }
    if (ref == null || !REF.matcher(ref).matches()) {
      throw StructuredObservationException.stale(
          "malformed element_ref \"" + ref + "\" (expected e<N>)");
    }
    AtspiElement e = live.get(ref);
    if (e == null) {
      throw notLive(ref);
    }
    return e;
  }

  private static StructuredObservationException notLive(String ref) {
    return StructuredObservationException.stale(ref + " is not in the live tree (it disappeared"
        + " or was never minted) \u2014 re-observe and retry");
  }

  private StructuredObservationException verbFailure(String verb, String ref,
      BusCallException e, A11yBus bus) {
    return switch (e.kind()) {
      case GONE -> notLive(ref);
      case TIMEOUT -> new StructuredObservationException(Kind.TIMEOUT,
          verb + " " + ref + " failed: " + e.getMessage());
      case DISCONNECTED -> {
        engine.dropConnection(bus);
        yield new StructuredObservationException(Kind.BUS_UNAVAILABLE,
            verb + " " + ref + " failed: AT-SPI bus unavailable: " + e.getMessage());
      }
      default -> new StructuredObservationException(Kind.VERB_FAILED,
          verb + " " + ref + " failed: " + e.getMessage());
    };
  }

  private long verbTimeoutMs() {
    // Actions run application code before they answer; give them more room than a read.
    return limits.perCall().toMillis() * 4;
  }

  /** Fails with a stale ref when the element is defunct although its path still answers. */
  private void requireAlive(A11yBus bus, AtspiElement e) throws BusCallException {
    Object[] r = bus.call(limits.perCall().toMillis(), e.busName(), e.path(),
        A11yBus.ACCESSIBLE, "GetState", null);
    long states = AtspiStates.fromWords(Decode.numbers(r[0]));
    if (AtspiStates.has(states, AtspiStates.DEFUNCT)) {
      throw new BusCallException(BusCallException.Kind.GONE, "defunct");
    }
  }

  @Override
  public synchronized void invokeAction(String ref, String action) {
    AtspiElement e = resolve(ref);
    A11yBus bus = engine.bus(System.nanoTime() + limits.request().toNanos());
    String verb = "invoke_action";
    try {
      requireAlive(bus, e);
      List<String> names = new ArrayList<>();
      Object[] r = bus.call(limits.perCall().toMillis(), e.busName(), e.path(),
          "org.a11y.atspi.Action", "GetActions", null);
      for (Object a : Decode.list(r[0])) {
        List<Object> s = Decode.struct(a);
        names.add(s.isEmpty() ? "" : Decode.string(s.get(0)));
      }
      if (names.isEmpty()) {
        throw new StructuredObservationException(Kind.VERB_FAILED,
            verb + " " + ref + " failed: the element has no actions");
      }
      int index = 0;
      if (action != null) {
        index = names.indexOf(action);
        for (int i = 0; index < 0 && i < names.size(); i++) {
          if (names.get(i).equalsIgnoreCase(action)) {
            index = i;
          }
        }
        if (index < 0) {
          throw new StructuredObservationException(Kind.VERB_FAILED, verb + " " + ref
              + " failed: no action named \"" + action + "\" (available: "
              + String.join(", ", names) + ")");
        }
      }
      Object[] done = bus.call(verbTimeoutMs(), e.busName(), e.path(), "org.a11y.atspi.Action",
          "DoAction", "i", index);
      if (done.length > 0 && !Decode.bool(done[0])) {
        throw new StructuredObservationException(Kind.VERB_FAILED, verb + " " + ref
            + " failed: the application refused action \"" + names.get(index) + "\"");
      }
    } catch (BusCallException ex) {
      throw verbFailure(verb, ref, ex, bus);
    }
  }

  @Override
  public synchronized void setValue(String ref, String value) {
    String verb = "set_value";
    if (value == null) {
      throw new StructuredObservationException(Kind.BAD_REQUEST,
          "set_value requires `text` (the new value)");
    }
    AtspiElement e = resolve(ref);
    A11yBus bus = engine.bus(System.nanoTime() + limits.request().toNanos());
    try {
      requireAlive(bus, e);
      List<String> ifaces = Decode.strings(bus.call(limits.perCall().toMillis(), e.busName(),
          e.path(), A11yBus.ACCESSIBLE, "GetInterfaces", null)[0]);
      if (ifaces.contains("org.a11y.atspi.EditableText")) {
        Object[] ok = bus.call(verbTimeoutMs(), e.busName(), e.path(),
            "org.a11y.atspi.EditableText", "SetTextContents", "s", value);
        if (ok.length > 0 && !Decode.bool(ok[0])) {
          throw new StructuredObservationException(Kind.VERB_FAILED,
              verb + " " + ref + " failed: the application rejected the text");
        }
      } else if (ifaces.contains("org.a11y.atspi.Value")) {
        double number;
        try {
          number = Double.parseDouble(value.trim());
        } catch (NumberFormatException nfe) {
          throw new StructuredObservationException(Kind.VERB_FAILED, verb + " " + ref
              + " failed: \"" + value + "\" is not a number (the element takes a numeric Value)");
        }
        if (!Double.isFinite(number)) {
          throw new StructuredObservationException(Kind.VERB_FAILED, verb + " " + ref
              + " failed: \"" + value + "\" is not a finite number");
        }
        bus.call(verbTimeoutMs(), e.busName(), e.path(), A11yBus.PROPERTIES, "Set", "ssv",
            "org.a11y.atspi.Value", "CurrentValue", new Variant<>(number));
      } else {
        throw new StructuredObservationException(Kind.VERB_FAILED, verb + " " + ref
            + " failed: the element has neither EditableText nor Value (role " + e.role() + ")");
      }
    } catch (BusCallException ex) {
      throw verbFailure(verb, ref, ex, bus);
    }
  }

  @Override
  public synchronized ScreenPoint resolveCenter(String ref, int screenW, int screenH) {
    AtspiElement e = resolve(ref);
    A11yBus bus = engine.bus(System.nanoTime() + limits.request().toNanos());
    Bbox box = e.bbox();
    try {
      requireAlive(bus, e);
      Object[] r = bus.call(limits.perCall().toMillis(), e.busName(), e.path(),
          "org.a11y.atspi.Component", "GetExtents", "u", new UInt32(0));
      List<Object> s = Decode.struct(r[0]);
      if (s.size() == 4) {
        box = new Bbox((int) Decode.number(s.get(0)), (int) Decode.number(s.get(1)),
            (int) Decode.number(s.get(2)), (int) Decode.number(s.get(3)));
      }
    } catch (BusCallException ex) {
      if (ex.kind() == BusCallException.Kind.GONE) {
        throw notLive(ref);
      }
      // A slow application: the box from the last observation is the best we have.
    }
    if (!box.usable() || box.x() + box.w() <= 0 || box.y() + box.h() <= 0
        || box.x() >= screenW || box.y() >= screenH) {
      throw new StructuredObservationException(Kind.NO_BOUNDS, "element_ref " + ref
          + " has no usable on-screen bounds; re-observe, or use invoke_action / set_value on it");
    }
    return box.centreClippedTo(screenW, screenH);
  }

  @Override
  public synchronized void close() {
    live = null;
    baseline = null;
  }
}
