package dev.agentdesk.app.serve.terminals;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What the per-terminal WebSocket sends about the screen: a full frame ({@code screen}) on
 * connect and resize, then only the rows that changed ({@code rows}). Rows are styled spans; the
 * browser draws them as they are and emulates nothing.
 */
public record ScreenFrame(String type, int cols, int rows, List<Row> lines, Cursor cursor, boolean alt_screen) {

  /** One screen row as runs of equally styled text. */
  public record Row(int row, List<Span> spans) {}

  /**
   * A run of cells with one style. Flags that are off and colours that are the default are
   * omitted from the JSON to keep frames small.
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public record Span(String text, String fg, String bg, boolean b, boolean d, boolean i, boolean u, boolean s,
      boolean inv) {}

  public record Cursor(int row, int col, boolean visible) {}
}
