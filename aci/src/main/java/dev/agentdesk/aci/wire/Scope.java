package dev.agentdesk.aci.wire;

import dev.agentdesk.aci.WireException;
import java.math.BigInteger;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Capture region (schema {@code Scope}): {@code screen}, {@code active_window}, or
 * {@code window:<id>} with the id in decimal or {@code 0x}-hex. The original spelling is kept so a
 * decoded scope re-encodes byte for byte.
 */
public record Scope(String wire) {
  private static final Pattern WINDOW = Pattern.compile("window:(0x[0-9a-fA-F]+|[0-9]+)");

  /** Which of the three scope forms this is. */
  public enum Kind { SCREEN, ACTIVE_WINDOW, WINDOW }

  public static final Scope SCREEN = new Scope("screen");
  public static final Scope ACTIVE_WINDOW = new Scope("active_window");

  public Scope {
    Objects.requireNonNull(wire, "wire");
    if (!wire.equals("screen") && !wire.equals("active_window") && !WINDOW.matcher(wire).matches()) {
      throw new WireException(WireException.Reason.INVALID_VALUE, "",
          "scope must be screen, active_window or window:<id> (decimal or 0x-hex), got \"" + wire + "\"");
    }
  }

  /** Parses the wire spelling; same as the constructor. */
  public static Scope parse(String wire) {
    return new Scope(wire);
  }

  /** {@code window:<id>} in decimal. */
  public static Scope window(long id) {
    if (id < 0) {
      throw new WireException(WireException.Reason.INVALID_VALUE, "", "window id must be >= 0, got " + id);
    }
    return new Scope("window:" + id);
  }

  public Kind kind() {
    return switch (wire) {
      case "screen" -> Kind.SCREEN;
      case "active_window" -> Kind.ACTIVE_WINDOW;
      default -> Kind.WINDOW;
    };
  }

  /**
   * The window id of a {@code window:<id>} scope. The schema bounds neither form, so the id is a
   * {@link BigInteger}; a runtime applies its own range (X11 ids fit in 32 bits).
   */
  public BigInteger windowId() {
    if (kind() != Kind.WINDOW) {
      throw new IllegalStateException("scope " + wire + " names no window");
    }
    String id = wire.substring("window:".length());
    return id.startsWith("0x") ? new BigInteger(id.substring(2), 16) : new BigInteger(id);
  }

  @Override
  public String toString() {
    return wire;
  }
}
