package dev.agentdesk.app.mcpinstall;

import dev.agentdesk.app.cli.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One table of a TOML file, edited as text: {@code [mcp_servers.agentdesk]} from its header to the
 * next table header. Nothing outside that table is touched, byte for byte; the table's own lines are
 * written as {@code key = value} with TOML basic strings.
 */
final class TomlTable {
  private final Path file;
  private final String header;

  TomlTable(Path file, String table) {
    this.file = file;
    this.header = "[" + table + "]";
  }

  String key() {
    return header;
  }

  Path file() {
    return file;
  }

  /** The table's body lines as they are now (without the header), or null when there is no such table. */
  List<String> current() {
    List<String> lines = read();
    int start = find(lines);
    if (start < 0) {
      return null;
    }
    List<String> body = new ArrayList<>();
    for (int i = start + 1; i < end(lines, start); i++) {
      if (!lines.get(i).isBlank()) {
        body.add(lines.get(i).strip());
      }
    }
    return body;
  }

  String put(List<String> body) {
    List<String> now = current();
    if (body.equals(now)) {
      return "unchanged";
    }
    List<String> lines = read();
    List<String> table = new ArrayList<>();
    table.add(header);
    table.addAll(body);
    int start = find(lines);
    if (start >= 0) {
      int end = end(lines, start);
      // Blank lines before the next table stay where they were.
      while (end > start + 1 && lines.get(end - 1).isBlank()) {
        end--;
      }
      lines.subList(start, end).clear();
      lines.addAll(start, table);
    } else {
      if (!lines.isEmpty() && !lines.get(lines.size() - 1).isBlank()) {
        lines.add("");
      }
      lines.addAll(table);
    }
    write(lines);
    return now == null ? "added" : "updated";
  }

  /** Removes the table (and the blank line before it that {@link #put} added); a file left empty is deleted. */
  String remove() {
    List<String> lines = read();
    int start = find(lines);
    if (start < 0) {
      return "unchanged";
    }
    int end = end(lines, start);
    while (end > start + 1 && lines.get(end - 1).isBlank()) {
      end--;
    }
    lines.subList(start, end).clear();
    if (start > 0 && lines.get(start - 1).isBlank() && (start == lines.size() || lines.get(start).isBlank())) {
      lines.remove(start - 1);
    }
    if (lines.stream().allMatch(String::isBlank)) {
      try {
        Files.delete(file);
      } catch (IOException e) {
        throw new UserError("cannot delete " + file + ": " + e.getMessage(), e);
      }
    } else {
      write(lines);
    }
    return "removed";
  }

  /** A TOML basic string. */
  static String string(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\u%04X", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private int find(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      String l = stripComment(lines.get(i));
      if (l.equals(header) || l.replace(" ", "").equals(header)) {
        return i;
      }
    }
    return -1;
  }

  private static int end(List<String> lines, int start) {
    for (int i = start + 1; i < lines.size(); i++) {
      if (stripComment(lines.get(i)).startsWith("[")) {
        return i;
      }
    }
    return lines.size();
  }

  private static String stripComment(String line) {
    String l = line.strip();
    int hash = l.indexOf(" #");
    return (hash >= 0 ? l.substring(0, hash) : l).strip();
  }

  private List<String> read() {
    if (!Files.exists(file)) {
      return new ArrayList<>();
    }
    try {
      return new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UserError("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private void write(List<String> lines) {
    try {
      ConfigFiles.replace(file, String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new UserError("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
