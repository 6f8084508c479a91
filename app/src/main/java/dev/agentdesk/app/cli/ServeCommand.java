package dev.agentdesk.app.cli;

import dev.agentdesk.app.serve.AgentdeskServer;
import dev.agentdesk.app.serve.DataDirs;
import dev.agentdesk.app.serve.Serve;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.ServeException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code agentdesk serve}: Run the web dashboard and REST/WebSocket API (terminals, history, sandboxes). */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run the web dashboard and REST/WebSocket API (terminals, history, sandboxes).",
        "Listens on 127.0.0.1:7420 by default. Any other address requires a token on every API and",
        "WebSocket call: give one with --token/--token-file, or one is generated and printed."})
public final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--port", defaultValue = "7420", paramLabel = "PORT",
      description = "TCP port (0 = any free port). Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDR",
      description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
  String bind;

  static final class DbChoice {
    @Option(names = "--db", paramLabel = "FILE",
        description = "History SQLite file. Default: $XDG_DATA_HOME/agentdesk/history.db (~/.local/share/agentdesk/history.db).")
    Path file;

    @Option(names = "--db-url", paramLabel = "JDBC_URL", description = "History database as a JDBC URL (e.g. PostgreSQL).")
    String url;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  DbChoice db;

  static final class TokenChoice {
    @Option(names = "--token", paramLabel = "TOKEN", description = "API token (at least 16 characters).")
    String token;

    @Option(names = "--token-file", paramLabel = "FILE", description = "Read the API token from FILE.")
    Path tokenFile;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  TokenChoice token;

  @Option(names = "--claude", paramLabel = "DIR", description = "Claude Code projects folder. Default: ~/.claude/projects.")
  Path claude;

  @Option(names = "--codex", paramLabel = "DIR", description = "Codex sessions folder. Default: ~/.codex/sessions.")
  Path codex;

  @Option(names = "--no-import", description = "Do not import or tail the history folders.")
  boolean noImport;

  @Override
  public Integer call() {
    ServeConfig config = config();
    PrintWriter out = spec.commandLine().getOut();
    AgentdeskServer server;
    try {
      server = Serve.start(config);
    } catch (ServeException e) {
      throw new UserError(e.getMessage(), e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      System.err.println("agentdesk serve: stopped");
      stopped.countDown();
    }, "agentdesk-shutdown"));
    String host = config.bind().contains(":") ? "[" + config.bind() + "]" : config.bind();
    if ("0.0.0.0".equals(config.bind()) || "[::]".equals(host)) {
      host = "127.0.0.1";
    }
    String url = "http://" + host + ":" + server.port() + "/";
    out.println("agentdesk serve: dashboard on " + url);
    out.println("  history database: " + config.database().describe());
    if (config.importHistory()) {
      out.println("  history folders:  " + config.claudeProjects() + " (Claude Code), "
          + config.codexSessions() + " (Codex)");
    } else {
      out.println("  history folders:  not imported (--no-import)");
    }
    config.token().ifPresent(t -> {
      out.println("  token required:   " + t);
      out.println("  open " + url + "?token=" + t + " or send 'Authorization: Bearer " + t + "'");
    });
    out.println("  stop with Ctrl-C (SIGINT) or SIGTERM");
    out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.close();
    }
    return 0;
  }

  private ServeConfig config() {
    var env = System.getenv();
    Path home = DataDirs.home();
    ServeConfig.Database database;
    if (db != null && db.url != null) {
      try {
        database = new ServeConfig.Database.JdbcUrl(db.url);
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage());
      }
    } else {
      Path file = db != null && db.file != null ? db.file : DataDirs.defaultDatabase(env, home);
      database = new ServeConfig.Database.SqliteFile(file.toAbsolutePath());
    }
    Optional<String> tok = readToken();
    if (tok.isEmpty() && !ServeConfig.isLoopback(bind)) {
      tok = Optional.of(generateToken());
    }
    try {
      return new ServeConfig(bind, port, tok, database,
          claude != null ? claude : home.resolve(".claude").resolve("projects"),
          codex != null ? codex : home.resolve(".codex").resolve("sessions"),
          !noImport, DataDirs.dataDir(env, home));
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  private Optional<String> readToken() {
    if (token == null) {
      return Optional.empty();
    }
    if (token.token != null) {
      return Optional.of(token.token.trim());
    }
    try {
      return Optional.of(Files.readString(token.tokenFile, StandardCharsets.UTF_8).trim());
    } catch (IOException e) {
      throw new UserError("cannot read the token file " + token.tokenFile + ": " + e.getMessage());
    }
  }

  static String generateToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
