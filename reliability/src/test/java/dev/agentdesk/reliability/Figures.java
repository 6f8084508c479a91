package dev.agentdesk.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Appends one measured row per test run to {@code reliability/target/reliability/figures.jsonl}
 * ({@code scripts/reliability-report} turns them into the table of docs/reliability.md). Only
 * measured values go in: what a run did not measure is not written.
 */
final class Figures {
  private static final Path FILE = Path.of("target", "reliability", "figures.jsonl");

  private final String test;
  private final Map<String, Object> values = new LinkedHashMap<>();

  private Figures(String test) {
    this.test = test;
  }

  static Figures of(String test) {
    return new Figures(test);
  }

  Figures put(String key, Object value) {
    values.put(key, value);
    return this;
  }

  /** Writes the row; {@code result} is what the test proved, in words. */
  void write(String size, String result) {
    StringBuilder sb = new StringBuilder("{\"test\":").append(quote(test))
        .append(",\"mode\":").append(quote(Size.label()))
        .append(",\"size\":").append(quote(size))
        .append(",\"result\":").append(quote(result));
    values.forEach((k, v) -> sb.append(',').append(quote(k)).append(':')
        .append(v instanceof Number || v instanceof Boolean ? v.toString() : quote(String.valueOf(v))));
    sb.append("}\n");
    try {
      Files.createDirectories(FILE.getParent());
      Files.writeString(FILE, sb.toString(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
