package dev.agentdesk.aci.wire;

/** An enum whose constants are spelled on the wire as {@link #wire()} (snake_case, lowercase). */
public sealed interface WireEnum
    permits Verb, PointerButton, TargetKind, QueryKind, Platform, ImageFormat, ObservationType, ElementSource,
        Channel, TreeForm {
  /** The exact JSON string of this constant. */
  String wire();

  /** The constant of {@code type} spelled {@code wire}, or null when none is (matching is exact, case-sensitive). */
  static <E extends Enum<E> & WireEnum> E lookup(Class<E> type, String wire) {
    for (E e : type.getEnumConstants()) {
      if (e.wire().equals(wire)) {
        return e;
      }
    }
    return null;
  }
}
