package dev.agentdesk.app.cli;

import dev.agentdesk.terminal.tcap.CaptureFormatException;
import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapReader;
import dev.agentdesk.terminal.vt.LogLine;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import dev.agentdesk.terminal.vt.VtEngine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code agentdesk term render}: feed a raw byte stream or .tcap capture through the VT engine and print the final screen. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {
      "Feed a raw byte stream or .tcap capture through the VT engine and print the final screen.",
      "Rows are right-trimmed; trailing blank rows are left out. A .tcap file (TUICCAP1 magic) is replayed"
          + " record by record, output records only; any other file is one output record.",
      "The input is streamed: memory does not grow with its length."
    })
public final class TermRenderCommand implements Callable<Integer> {
  /**
   * Bytes read and fed per step: the whole input passes through one buffer of this size. Large
   * enough that the per-read costs (a system call, a dispatch into the engine) vanish beside the
   * parsing, small enough to stay in the core's cache while it is parsed.
   */
  static final int CHUNK_BYTES = 256 * 1024;

  @Spec
  CommandSpec spec;

  @Option(names = "--cols", defaultValue = "80", description = "Terminal width in cells (default: ${DEFAULT-VALUE}).")
  int cols;

  @Option(names = "--rows", defaultValue = "24", description = "Terminal height in rows (default: ${DEFAULT-VALUE}).")
  int rows;

  @Option(names = "--json", description = "Print one JSON object: lines, cursor {row, col} (zero-based), wrapped, alt_screen,"
      + " log (the last rows that scrolled off, at most " + VtEngine.DEFAULT_LOG_CAPACITY + ").")
  boolean json;

  @Parameters(paramLabel = "FILE", description = "Raw terminal output or a .tcap capture.")
  Path file;

  @Override
  public Integer call() {
    if (cols < 1 || rows < 1 || cols > 10_000 || rows > 10_000) {
      throw new UserError("--cols and --rows must be between 1 and 10000 (got " + cols + "x" + rows + ")");
    }
    // The text form shows only the screen, so no scrollback is kept for it; --json's log is bounded.
    VtEngine engine = new VtEngine(cols, rows, json ? VtEngine.DEFAULT_LOG_CAPACITY : 0);
    try (TcapReader reader = TcapReader.open(file)) {
      // Piece by piece through one buffer: a .raw stream or a .tcap record is never held whole,
      // and no changed rows are built, so nothing per piece is left for the collector either.
      reader.stream(new byte[CHUNK_BYTES], (direction, micros, buf, off, len) -> {
        if (direction == Direction.OUTPUT) {
          engine.feedWithoutChanges(buf, off, len);
        }
      });
    } catch (NoSuchFileException e) {
      throw new UserError("no such file: " + file);
    } catch (CaptureFormatException e) {
      throw new UserError(file + ": " + e.getMessage(), e);
    } catch (IOException e) {
      if (Files.isDirectory(file)) {
        throw new UserError(file + " is a directory; give a capture file");
      }
      throw new UserError("cannot read " + file + ": " + e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    ScreenSnapshot s = engine.snapshot();
    if (json) {
      out.println(toJson(s, engine.log()));
    } else if (!s.text().isEmpty()) {
      out.println(s.text());
    }
    out.flush();
    return 0;
  }

  static String toJson(ScreenSnapshot s, List<LogLine> log) {
    StringBuilder sb = new StringBuilder(256);
    sb.append("{\"lines\": [");
    appendStrings(sb, s.lines());
    sb.append("], \"cursor\": {\"row\": ").append(s.cursorRow()).append(", \"col\": ").append(s.cursorCol());
    sb.append("}, \"wrapped\": [");
    for (int i = 0; i < s.wrapped().size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(s.wrapped().get(i));
    }
    sb.append("], \"alt_screen\": ").append(s.altScreen()).append(", \"log\": [");
    appendStrings(sb, log.stream().map(LogLine::text).toList());
    return sb.append("]}").toString();
  }

  private static void appendStrings(StringBuilder sb, List<String> strings) {
    for (int i = 0; i < strings.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      quote(sb, strings.get(i));
    }
  }

  /** JSON string literal; control characters and lone surrogates are escaped so the output is always valid. */
  static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !validPair(s, i)) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static boolean validPair(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
