package dev.agentdesk.terminal.parser;

import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A scripted capture: one record per line, {@code <ms> <out|in> <text>}, the text with escapes
 * ({@code \e \r \n \a \t \\ \xHH}). Lines starting with {@code #} are comments. It is turned into
 * real .tcap bytes with {@link TcapWriter}, so replay goes through the same reader as a recording.
 */
final class ScenarioScript {
  private ScenarioScript() {}

  static byte[] toTcap(List<String> lines) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TcapWriter w = TcapWriter.open(out)) {
      for (String line : lines) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int a = line.indexOf(' ');
        int b = line.indexOf(' ', a + 1);
        long ms = Long.parseLong(line.substring(0, a));
        String dir = line.substring(a + 1, b);
        byte[] payload = unescape(line.substring(b + 1));
        Direction d = switch (dir) {
          case "out" -> Direction.OUTPUT;
          case "in" -> Direction.INPUT;
          default -> throw new IllegalArgumentException("direction must be out or in: " + line);
        };
        w.write(d, ms * 1000, payload, 0, payload.length);
      }
    }
    return out.toByteArray();
  }

  static byte[] unescape(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StringBuilder plain = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        plain.append(c);
        continue;
      }
      char n = s.charAt(++i);
      if (n == 'x') {
        flush(plain, out);
        out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
        i += 2;
        continue;
      }
      plain.append(switch (n) {
        case 'e' -> '\u001b';
        case 'r' -> '\r';
        case 'n' -> '\n';
        case 'a' -> '\u0007';
        case 't' -> '\t';
        case '\\' -> '\\';
        default -> throw new IllegalArgumentException("unknown escape \\" + n + " in " + s);
      });
    }
    flush(plain, out);
    return out.toByteArray();
  }

  private static void flush(StringBuilder plain, ByteArrayOutputStream out) {
    byte[] b = plain.toString().getBytes(StandardCharsets.UTF_8);
    out.write(b, 0, b.length);
    plain.setLength(0);
  }
}
