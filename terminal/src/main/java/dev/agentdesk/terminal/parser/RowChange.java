package dev.agentdesk.terminal.parser;

import java.util.Objects;

/** A screen row whose text changed in the last chunk of output, with its new text. */
public record RowChange(int row, String text) {
  public RowChange {
    Objects.requireNonNull(text, "text");
  }
}
