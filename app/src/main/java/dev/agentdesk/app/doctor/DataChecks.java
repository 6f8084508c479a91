package dev.agentdesk.app.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.serve.ServerClient;
import dev.agentdesk.app.serve.TokenFile;
import dev.agentdesk.transcripts.TranscriptHistory;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * agentdesk's own state, read without changing anything: the data folder and token file modes, a
 * running serve, the SQLite database's schema version, a configured PostgreSQL.
 */
final class DataChecks {
  private static final Set<PosixFilePermission> GROUP_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private DataChecks() {}

  static Check dataFolder(Path dir) {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Path parent = dir.getParent();
      while (parent != null && !Files.exists(parent)) {
        parent = parent.getParent();
      }
      if (parent != null && !Files.isWritable(parent)) {
        return Check.fail("data folder", dir + " does not exist and " + parent + " is not writable",
            "create " + dir + " (mode 0700) or set XDG_DATA_HOME to a folder you own").asRequired();
      }
      return Check.ok("data folder", dir + " not made yet; the first command makes it, mode 0700").asRequired();
    }
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      return Check.fail("data folder", dir + " is not a writable folder",
          "make it a folder you own (chown/chmod), or set XDG_DATA_HOME elsewhere").asRequired();
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
      String mode = PosixFilePermissions.toString(perms);
      if (perms.stream().anyMatch(GROUP_OTHERS::contains)) {
        return Check.warn("data folder", dir + " is " + mode + ": other accounts may enter it",
            "chmod 700 " + dir + " (any agentdesk command also tightens it)").asRequired();
      }
      return Check.ok("data folder", dir + " (" + mode + ")").asRequired();
    } catch (IOException | UnsupportedOperationException e) {
      return Check.ok("data folder", dir + " (mode unknown: " + e.getMessage() + ")").asRequired();
    }
  }

  static Check tokenFile(Path file) {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Check.info("token file", file + " not made yet; 'agentdesk serve' writes it on first start (mode 0600)")
          .asRequired();
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      String mode = PosixFilePermissions.toString(perms);
      if (perms.stream().anyMatch(GROUP_OTHERS::contains)) {
        return Check.fail("token file", file + " is " + mode + ": others may have read the token, serve refuses it",
            "chmod 600 " + file + ", or delete it for a new token on the next 'agentdesk serve'").asRequired();
      }
      if (!Files.isReadable(file)) {
        return Check.fail("token file", file + " is not readable by you",
            "delete it; 'agentdesk serve' writes a new one").asRequired();
      }
      return Check.ok("token file", file + " (" + mode + ")").asRequired();
    } catch (IOException | UnsupportedOperationException e) {
      return Check.warn("token file", "cannot read the mode of " + file + ": " + e.getMessage(),
          "check that you own " + file);
    }
  }

  static Check serve(URI server, Path tokenFile) {
    ServerClient client;
    try {
      client = ServerClient.withTokenFile(server, tokenFile);
    } catch (TokenFile.TokenFileException e) {
      return Check.info("serve", "not checked: " + e.getMessage());
    }
    try {
      ServerClient.Response r = client.send(client.request("/api/health").timeout(Duration.ofSeconds(3)).GET());
      if (!r.ok()) {
        return Check.warn("serve", server + "api/health answered " + r.status(),
            "is another program on that port? 'agentdesk serve --port N' picks another");
      }
      JsonNode h = new ObjectMapper().readTree(r.body());
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("url", server.toString());
      data.put("version", h.path("version").asText(null));
      data.put("uptime_s", h.path("uptime_s").asLong());
      return Check.ok("serve", "running at " + server + " (version " + h.path("version").asText("?") + ", up "
          + h.path("uptime_s").asLong() + " s)").with(data);
    } catch (ServerClient.ServerClientException e) {
      if (e.getCause() instanceof java.net.ConnectException) {
        return Check.info("serve", "not running at " + server + "; start it with 'agentdesk serve'");
      }
      return Check.warn("serve", e.getMessage(), "restart 'agentdesk serve'; see its log for why it did not answer");
    } catch (IOException e) {
      return Check.warn("serve", server + "api/health did not answer JSON: " + e.getMessage(),
          "is another program on that port?");
    }
  }

  /** The SQLite history: its schema version against the one this build writes. */
  static Check sqlite(Path db) {
    int known;
    try {
      known = knownSchemaVersion();
    } catch (RuntimeException | IOException | SQLException e) {
      return Check.fail("database", "SQLite does not work in this runtime: " + e.getMessage(),
          "report this with 'agentdesk doctor --json' (the sqlite-jdbc native library did not load)").asRequired();
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("file", db.toString());
    data.put("schema_known", known);
    if (!Files.exists(db)) {
      data.put("schema_version", null);
      return Check.ok("database", db + " not made yet; 'agentdesk history import' or serve makes it (schema version "
          + known + ")").with(data).asRequired();
    }
    try {
      int version = schemaVersion("jdbc:sqlite:file:" + db.toAbsolutePath() + "?mode=ro");
      data.put("schema_version", version);
      if (version > known) {
        return Check.fail("database", db + " is at schema version " + version + ", this agentdesk knows up to " + known,
            "use the newer agentdesk that wrote it, or --db another file").with(data).asRequired();
      }
      return Check.ok("database", db + " schema version " + version + (version < known
          ? " (the next command migrates it to " + known + ")" : "")).with(data).asRequired();
    } catch (SQLException e) {
      return Check.fail("database", "cannot read " + db + ": " + e.getMessage(),
          "check its owner and mode (0600), or move it away for a new one").with(data).asRequired();
    }
  }

  /** A configured PostgreSQL (its URL; the password comes from PGPASSWORD or ~/.pgpass, as for psql). */
  static Check postgres(String url) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("url", url.replaceAll("password=[^&]*", "password=***"));
    try {
      int version = schemaVersion(url + (url.contains("?") ? "&" : "?") + "connectTimeout=5&loginTimeout=5");
      data.put("schema_version", version);
      return Check.ok("postgresql", data.get("url") + " answers; schema version " + version).with(data).asRequired();
    } catch (SQLException e) {
      return Check.fail("postgresql", data.get("url") + ": " + e.getMessage(),
          "check that the server runs and the URL's user can connect; the password comes from PGPASSWORD or"
              + " ~/.pgpass (PGPASSFILE)").with(data).asRequired();
    }
  }

  /** 0 for a database without agentdesk's tables yet. */
  private static int schemaVersion(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_migrations")) {
        return rs.next() ? rs.getInt(1) : 0;
      } catch (SQLException e) {
        if (String.valueOf(e.getMessage()).contains("schema_migrations")) {
          return 0;
        }
        throw e;
      }
    }
  }

  /** The schema version this build writes: that of a database it makes from nothing, in a temp folder. */
  private static int knownSchemaVersion() throws IOException, SQLException {
    Path dir = Files.createTempDirectory("agentdesk-doctor");
    Path db = dir.resolve("probe.db");
    try {
      TranscriptHistory.open(db).close();
      return schemaVersion("jdbc:sqlite:file:" + db + "?mode=ro");
    } finally {
      try (var files = Files.list(dir)) {
        for (Path f : files.toList()) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(dir);
    }
  }
}
