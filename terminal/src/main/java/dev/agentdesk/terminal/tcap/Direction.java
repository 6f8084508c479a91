package dev.agentdesk.terminal.tcap;

/** Which way a captured chunk travelled. */
public enum Direction {
  /** Bytes the program wrote to the PTY (what the screen shows). Wire byte 0. */
  OUTPUT(0),
  /** Bytes the user sent to the program (keys, pastes). Wire byte 1. */
  INPUT(1);

  private final int wire;

  Direction(int wire) {
    this.wire = wire;
  }

  /** The direction byte in a .tcap record. */
  public int wire() {
    return wire;
  }

  static Direction fromWire(int b) {
    return switch (b) {
      case 0 -> OUTPUT;
      case 1 -> INPUT;
      default -> null;
    };
  }
}
