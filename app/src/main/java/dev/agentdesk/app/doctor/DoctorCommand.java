package dev.agentdesk.app.doctor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.agentdesk.app.AppVersion;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.app.history.DbOption;
import dev.agentdesk.app.serve.DataDirs;
import dev.agentdesk.app.serve.ServerClient;
import dev.agentdesk.app.serve.TokenFile;
import dev.agentdesk.transcripts.HistoryFolders;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agentdesk doctor}: what works on this machine and what is missing, each problem with its
 * fix. Exits 0 when the main job ({@code agentdesk serve} on SQLite) can run, 1 when a required
 * part is broken. Changes nothing.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
    description = {"Check this machine for agentdesk: the runtime, git, Xvfb, the AT-SPI bus, D-Bus, the agent CLIs",
        "on PATH (their versions, and whether agentdesk was tested with them), the data folder and token",
        "file modes, a running serve, the history database's schema version and a configured PostgreSQL.",
        "Every problem line says what to do. Exit 0 when 'agentdesk serve' on SQLite can run, 1 otherwise.",
        "Changes nothing."})
public final class DoctorCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print one JSON object: ok, version, checks[] (name, status, detail, fix, required, …).")
  boolean json;

  @Option(names = "--db", paramLabel = "FILE", description = "The SQLite history to check. Default: $XDG_DATA_HOME/agentdesk/history.db")
  Path db;

  @Option(names = "--db-url", paramLabel = "JDBC_URL",
      description = "Check this PostgreSQL history instead (password from PGPASSWORD or ~/.pgpass).")
  String dbUrl;

  @Option(names = "--db-url-file", paramLabel = "FILE", description = "Read the JDBC URL to check from FILE's first line.")
  Path dbUrlFile;

  @Option(names = "--server", paramLabel = "URL", description = "The serve to look for. Default: http://127.0.0.1:7420/.")
  URI server = ServerClient.DEFAULT_URL;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "The serve's token file. Default: $XDG_DATA_HOME/agentdesk/token (~/.local/share/agentdesk/token).")
  Path tokenFile;

  @Option(names = "--timeout", paramLabel = "SECONDS", description = "How long each '<agent> --version' may take. Default: 10.")
  int timeoutSeconds = 10;

  /** The environment PATH, HOME and XDG_DATA_HOME come from (tests give their own). */
  Map<String, String> env = System.getenv();
  /** The agent versions agentdesk was tested with; null: {@link TestedVersions#find()}. */
  TestedVersions tested;

  @Override
  public Integer call() throws IOException {
    if (db != null && (dbUrl != null || dbUrlFile != null) || dbUrl != null && dbUrlFile != null) {
      throw new UserError("--db, --db-url and --db-url-file are mutually exclusive: give a SQLite file or one JDBC URL");
    }
    List<Check> checks = run();
    boolean ok = checks.stream().noneMatch(Check::blocks);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("ok", ok);
      doc.put("version", AppVersion.current());
      doc.put("checks", checks.stream().map(DoctorCommand::toJson).toList());
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
    } else {
      out.print(text(checks, ok));
    }
    out.flush();
    return ok ? 0 : 1;
  }

  List<Check> run() {
    Path home = HistoryFolders.home(env);
    Path dataDir = DataDirs.dataDir(env, home);
    TestedVersions versions = tested != null ? tested : TestedVersions.find();
    List<Check> checks = new ArrayList<>(new SystemChecks(new Programs(env), Duration.ofSeconds(timeoutSeconds), versions).all());
    checks.add(DataChecks.dataFolder(dataDir));
    Path token = tokenFile != null ? tokenFile : TokenFile.defaultPath(env, home);
    checks.add(DataChecks.tokenFile(token));
    checks.add(DataChecks.serve(server, token));
    String url = dbUrlFile != null ? DbOption.readUrlFile(dbUrlFile) : dbUrl;
    if (url != null) {
      checks.add(DataChecks.postgres(url));
    } else {
      checks.add(DataChecks.sqlite(db != null ? db : DataDirs.defaultDatabase(env, home)));
      checks.add(Check.info("postgresql", "not configured (optional: --db-url or --db-url-file for a team's history)"));
    }
    return checks;
  }

  static String text(List<Check> checks, boolean ok) {
    StringBuilder s = new StringBuilder();
    s.append("agentdesk doctor (agentdesk ").append(AppVersion.current()).append(")\n");
    int width = checks.stream().mapToInt(c -> c.name().length()).max().orElse(10);
    for (Check c : checks) {
      s.append(String.format(Locale.ROOT, "  %-4s  %-" + width + "s  %s%n", label(c.status()), c.name(), c.detail()));
      if (c.fix() != null) {
        s.append(" ".repeat(width + 10)).append("fix: ").append(c.fix()).append('\n');
      }
    }
    s.append(ok ? "The main job can run: 'agentdesk serve' (SQLite).\n"
        : "The main job cannot run: fix the FAIL lines above.\n");
    return s.toString();
  }

  private static String label(Check.Status s) {
    return switch (s) {
      case OK -> "ok";
      case INFO -> "--";
      case WARN -> "WARN";
      case FAIL -> "FAIL";
    };
  }

  private static Map<String, Object> toJson(Check c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", c.name());
    m.put("status", c.status().name().toLowerCase(Locale.ROOT));
    m.put("detail", c.detail());
    m.put("fix", c.fix());
    m.put("required", c.required());
    m.putAll(c.data());
    return m;
  }
}
