package dev.agentdesk.transcripts;

import java.util.Locale;

/**
 * Which cost a usage report's {@code costUsd} is, as ccusage's {@code --mode}: the cost agentdesk
 * calculates from the tokens, or the cost the agent recorded itself (Claude Code's session cost on exit,
 * OpenCode's per-message cost). Both stay in every row either way ({@link UsageRow#calculatedUsd},
 * {@link UsageRow#recordedUsd}).
 */
public enum CostMode {
  /** The recorded cost where the agent recorded one, the calculated cost elsewhere (the default). */
  AUTO,
  /** Always the cost calculated from tokens and prices. */
  CALCULATE,
  /** Only the recorded cost: 0 for responses whose agent recorded none. */
  DISPLAY;

  /** {@code auto}, {@code calculate} or {@code display} (case-insensitive). */
  public static CostMode parse(String name) {
    for (CostMode m : values()) {
      if (m.name().equalsIgnoreCase(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("the cost mode is auto, calculate or display, not '" + name + "'");
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
