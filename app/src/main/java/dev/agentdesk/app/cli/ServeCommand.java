package dev.agentdesk.app.cli;

import dev.agentdesk.app.history.HistoryFolderOptions;
import dev.agentdesk.app.serve.AgentdeskServer;
import dev.agentdesk.app.serve.DataDirs;
import dev.agentdesk.app.serve.Serve;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.TokenFile;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
        "Listens on 127.0.0.1:7420 by default. Every request needs the server's token, on loopback too",
        "(other accounts of this machine reach loopback): it is kept in $XDG_DATA_HOME/agentdesk/token",
        "(mode 0600, made on first start) and the printed link carries it once."})
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

    @Option(names = "--db-url", paramLabel = "JDBC_URL", description = "History database as a JDBC URL, e.g."
        + " jdbc:postgresql://HOST/DB?user=U; the password from PGPASSWORD or ~/.pgpass (PGPASSFILE), as for psql,"
        + " not in the URL (ps shows the command line to every account).")
    String url;

    @Option(names = "--db-url-file", paramLabel = "FILE", description = "Read the JDBC URL from FILE's first line.")
    Path urlFile;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  DbChoice db;

  static final class TokenChoice {
    @Option(names = "--token-file", paramLabel = "FILE",
        description = "Where the token is kept; made with a new token (mode 0600) when missing or empty."
            + " Default: $XDG_DATA_HOME/agentdesk/token (~/.local/share/agentdesk/token).")
    Path tokenFile;

    @Option(names = "--no-token",
        description = "Require no token (loopback only): every account on this machine can then use the server.")
    boolean noToken;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  TokenChoice token;

  @picocli.CommandLine.Mixin
  HistoryFolderOptions folders = new HistoryFolderOptions();

  @Option(names = "--no-import", description = "Do not import or tail the history folders.")
  boolean noImport;

  @Option(names = "--webhook", paramLabel = "URL",
      description = "POST a JSON notification to URL when a session needs you, hits a limit, fails, opens a PR, … "
          + "(repeatable; which events go where: $XDG_CONFIG_HOME/agentdesk/notifications.json or the dashboard).")
  java.util.List<String> webhooks = new java.util.ArrayList<>();

  @Option(names = "--webhook-format", paramLabel = "FORMAT", defaultValue = "json",
      description = "Body of every --webhook: json ({event, session, agent, title, text, url, at}), ntfy (URL is the"
          + " topic URL), slack or discord. Default: ${DEFAULT-VALUE}.")
  String webhookFormat;

  @Option(names = "--auto-resume",
      description = "Every session types 'continue' by itself once a rate or usage limit resets (unless turned off"
          + " for it). Default: off; turn it on per session with 'agent start --auto-resume' or the dashboard.")
  boolean autoResume;

  @Option(names = "--mcp-allow-control",
      description = "Let MCP clients at /mcp type into terminals, start terminals and agents, act and exec in"
          + " sandboxes. Without it the MCP endpoint offers read-only tools only.")
  boolean mcpAllowControl;

  @Option(names = "--recordings", paramLabel = "DIR",
      description = "The folder of ACI recordings the dashboard's Recordings page plays (each sub-folder one"
          + " recording, as 'runtime --record' and 'aci record --out' write them)."
          + " Default: $XDG_DATA_HOME/agentdesk/recordings (~/.local/share/agentdesk/recordings).")
  Path recordings;

  /** What happened to the token file at start (made, replaced), for the banner. */
  private Optional<String> tokenNote = Optional.empty();

  @Override
  public Integer call() {
    ServeConfig config = config();
    PrintWriter out = spec.commandLine().getOut();
    AgentdeskServer server;
    Optional<String> dataNote;
    try {
      dataNote = DataDirs.makePrivate(config.dataDir());
    } catch (java.io.UncheckedIOException e) {
      throw new UserError(e.getMessage(), e);
    }
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
    PrintWriter err = spec.commandLine().getErr();
    if (config.access() instanceof ServeConfig.Access.Token t) {
      // The only place the token is printed: once, in the link that signs a browser in.
      out.println("agentdesk serve: dashboard on " + url + "?token=" + URLEncoder.encode(t.value(), StandardCharsets.UTF_8));
      out.println("  token file:       " + t.file().map(Path::toString).orElse("(none)")
          + tokenNote.map(n -> " (" + n + ")").orElse(""));
    } else {
      err.println("agentdesk serve: warning: --no-token: every account on this machine can use this server"
          + " (start shells as you, read your history)");
      err.flush();
      out.println("agentdesk serve: dashboard on " + url);
    }
    out.println("  history database: " + config.database().describe());
    if (config.importHistory()) {
      out.println("  history folders:  " + config.historyRoots().stream()
          .map(r -> r.path() + " (" + r.provider().id() + (java.nio.file.Files.isDirectory(r.path()) ? "" : ", not there yet")
              + ")").collect(java.util.stream.Collectors.joining(",\n                    ")));
    } else {
      out.println("  history folders:  not imported (--no-import)");
    }
    dataNote.ifPresent(n -> out.println("  data folder:      " + n));
    ServeConfig.Notifications nc = config.notifications();
    out.println("  notifications:    browser" + (nc.desktopBus() != null ? ", desktop" : "")
        + (nc.webhooks().isEmpty() ? "" : ", " + nc.webhooks().size() + " webhook" + (nc.webhooks().size() == 1 ? "" : "s")
            + " (" + nc.webhooks().get(0).format().code() + ")")
        + "; auto-resume " + (nc.autoResumeAll() ? "on for every session" : "per session") + "; settings "
        + nc.settingsFile());
    out.println("  recordings:       " + config.recordings()
        + (java.nio.file.Files.isDirectory(config.recordings()) ? "" : " (not there yet)"));
    out.println("  MCP endpoint:     " + url + "mcp (Streamable HTTP, same token; "
        + (config.mcpAllowControl() ? "control tools allowed" : "read-only; --mcp-allow-control allows control") + ")");
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
    if (db != null && (db.url != null || db.urlFile != null)) {
      try {
        database = new ServeConfig.Database.JdbcUrl(db.url != null ? db.url
            : dev.agentdesk.app.history.DbOption.readUrlFile(db.urlFile));
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage());
      }
    } else {
      Path file = db != null && db.file != null ? db.file : DataDirs.defaultDatabase(env, home);
      database = new ServeConfig.Database.SqliteFile(file.toAbsolutePath());
    }
    ServeConfig.Access access = access(env, home);
    ServeConfig.Notifications notifications;
    try {
      dev.agentdesk.notify.WebhookFormat format = dev.agentdesk.notify.WebhookFormat.named(webhookFormat);
      java.util.List<dev.agentdesk.notify.Webhook> hooks = new java.util.ArrayList<>();
      for (String w : webhooks) {
        hooks.add(dev.agentdesk.notify.Webhook.parse(w, format));
      }
      String bus = env.get("DBUS_SESSION_BUS_ADDRESS");
      notifications = new ServeConfig.Notifications(hooks, bus == null || bus.isBlank() ? null : bus,
          dev.agentdesk.notify.NotifySettings.defaultFile(env, home), autoResume);
    } catch (dev.agentdesk.notify.NotifyException e) {
      throw new UserError(e.getMessage() + " (--webhook, --webhook-format)", e);
    }
    try {
      ServeConfig c = new ServeConfig(bind, port, access, database,
          folders.roots(env, false), !noImport, DataDirs.dataDir(env, home), notifications, mcpAllowControl);
      return recordings == null ? c : c.withRecordings(recordings.toAbsolutePath());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  /** The token from its file (made when missing), or none with --no-token on loopback. */
  private ServeConfig.Access access(java.util.Map<String, String> env, Path home) {
    if (token != null && token.noToken) {
      if (!ServeConfig.isLoopback(bind)) {
        throw new UserError("--no-token is refused for --bind " + bind + ": that address can be reached from other"
            + " machines, and without a token anyone who reaches it can start a shell as you");
      }
      return new ServeConfig.Access.None();
    }
    Path file = token != null && token.tokenFile != null ? token.tokenFile : TokenFile.defaultPath(env, home);
    try {
      TokenFile.Loaded loaded = TokenFile.readOrCreate(file);
      tokenNote = loaded.note();
      return new ServeConfig.Access.Token(loaded.token(), Optional.of(loaded.file()));
    } catch (TokenFile.TokenFileException e) {
      throw new UserError(e.getMessage(), e);
    }
  }
}
