package dev.agentdesk.transcripts.store;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The password of a PostgreSQL URL that carries none, found where PostgreSQL's own tools look:
 * {@code PGPASSWORD}, then the password file ({@code PGPASSFILE}, else {@code ~/.pgpass}), whose
 * lines are {@code host:port:database:user:password} with {@code *} for any and {@code \:} for a
 * colon; like libpq, a password file that group or others may read is not used. A password on the
 * command line is seen by every account through {@code ps}; these are not.
 */
final class PgPassword {
  private static final Pattern URL = Pattern.compile("jdbc:postgresql:(?://([^/?]*))?/?([^?]*)(?:\\?(.*))?");
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private PgPassword() {}

  /**
   * {@code url} with a password parameter added from the environment, or {@code url} as it is
   * when it has one, is not PostgreSQL, or none is found (the server may not ask for one).
   */
  static String complete(String url, Map<String, String> env) {
    Matcher m = URL.matcher(url);
    if (!m.matches()) {
      return url;
    }
    String query = m.group(3) == null ? "" : m.group(3);
    Optional<String> user = param(query, "user");
    if (param(query, "password").isPresent()) {
      return url;
    }
    String pw = env.get("PGPASSWORD");
    if (pw == null || pw.isEmpty()) {
      String hostPort = m.group(1) == null || m.group(1).isEmpty() ? "localhost" : m.group(1).split(",")[0];
      String host = hostPort;
      String port = env.getOrDefault("PGPORT", "5432");
      int colon = hostPort.lastIndexOf(':');
      if (colon > 0 && !hostPort.endsWith("]")) {
        host = hostPort.substring(0, colon);
        port = hostPort.substring(colon + 1);
      }
      String database = m.group(2) == null || m.group(2).isEmpty() ? user.orElse("") : m.group(2);
      String who = user.orElseGet(() -> env.getOrDefault("PGUSER", System.getProperty("user.name", "")));
      pw = fromFile(passFile(env), host, port, database, who).orElse(null);
    }
    if (pw == null) {
      return url;
    }
    return url + (m.group(3) == null ? "?" : "&") + "password=" + URLEncoder.encode(pw, StandardCharsets.UTF_8);
  }

  static Path passFile(Map<String, String> env) {
    String file = env.get("PGPASSFILE");
    if (file != null && !file.isBlank()) {
      return Path.of(file);
    }
    String home = env.get("HOME");
    return Path.of(home == null || home.isBlank() ? System.getProperty("user.home") : home, ".pgpass");
  }

  /** The first matching line's password; empty when the file is missing, unreadable or open to others. */
  static Optional<String> fromFile(Path file, String host, String port, String database, String user) {
    try {
      if (!Files.isRegularFile(file)) {
        return Optional.empty();
      }
      try {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        perms.retainAll(GROUP_OR_OTHERS);
        if (!perms.isEmpty()) {
          return Optional.empty(); // libpq: "password file has group or world access; permissions should be u=rw"
        }
      } catch (UnsupportedOperationException notPosix) {
        // nothing to check
      }
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        List<String> f = fields(line);
        if (f.size() == 5 && matches(f.get(0), host) && matches(f.get(1), port) && matches(f.get(2), database)
            && matches(f.get(3), user)) {
          return Optional.of(f.get(4));
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static boolean matches(String field, String value) {
    return field.equals("*") || field.equals(value);
  }

  /** The colon-separated fields of a password-file line, {@code \:} and {@code \\} unescaped. */
  static List<String> fields(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length()) {
        cur.append(line.charAt(++i));
      } else if (c == ':' && out.size() < 4) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }

  private static Optional<String> param(String query, String name) {
    for (String part : query.split("[&;]")) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).equalsIgnoreCase(name)) {
        return Optional.of(URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }
}
