package dev.agentdesk.terminal.session;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Named keys and the bytes a terminal sends for them (xterm, normal cursor-key mode). Single-key
 * replies to choice prompts go through these rather than text plus carriage return.
 */
public enum Key {
  ENTER("\r"),
  TAB("\t"),
  BACKTAB("\u001b[Z"),
  ESCAPE("\u001b"),
  BACKSPACE("\u007f"),
  DELETE("\u001b[3~"),
  UP("\u001b[A"),
  DOWN("\u001b[B"),
  RIGHT("\u001b[C"),
  LEFT("\u001b[D"),
  HOME("\u001b[H"),
  END("\u001b[F"),
  PAGE_UP("\u001b[5~"),
  PAGE_DOWN("\u001b[6~"),
  CTRL_C("\u0003"),
  CTRL_D("\u0004"),
  CTRL_Z("\u001a"),
  CTRL_L("\f"),
  SPACE(" ");

  private final byte[] bytes;

  Key(String sequence) {
    this.bytes = sequence.getBytes(StandardCharsets.US_ASCII);
  }

  /** The bytes written to the PTY for this key (a fresh copy). */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * Parses a key name as a user or an API gives it: case-insensitive, {@code -} or {@code _},
   * {@code esc}/{@code return}/{@code ctrl+c} aliases accepted.
   *
   * @throws SessionException with reason {@link SessionException.Reason#UNKNOWN_KEY}
   */
  public static Key named(String name) {
    String n = name == null ? "" : name.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace('+', '_');
    switch (n) {
      case "ESC":
        return ESCAPE;
      case "RETURN":
        return ENTER;
      case "PGUP":
        return PAGE_UP;
      case "PGDN":
        return PAGE_DOWN;
      case "SHIFT_TAB":
        return BACKTAB;
      default:
        break;
    }
    for (Key k : values()) {
      if (k.name().equals(n)) {
        return k;
      }
    }
    StringBuilder known = new StringBuilder();
    for (Key k : values()) {
      known.append(known.length() == 0 ? "" : ", ").append(k.name().toLowerCase(Locale.ROOT));
    }
    throw new SessionException(SessionException.Reason.UNKNOWN_KEY,
        "unknown key '" + name + "'; known keys: " + known);
  }
}
