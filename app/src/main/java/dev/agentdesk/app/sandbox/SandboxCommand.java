package dev.agentdesk.app.sandbox;

import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServerClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code agentdesk sandbox}: isolated desktops with the ACI runtime, one command each (docs/sandbox.md). */
@Command(name = "sandbox", mixinStandardHelpOptions = true,
    description = "Start, list and stop sandbox desktops: a private X server with a window manager, the"
        + " accessibility bus, optional apps and Chromium, and the ACI runtime, isolated by bubblewrap"
        + " (docs/sandbox.md).",
    subcommands = {SandboxCommand.Start.class, SandboxCommand.ListSandboxes.class, SandboxCommand.Stop.class,
        SandboxCommand.Supervise.class, SandboxCommand.GuestCommand.class})
public final class SandboxCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "start", mixinStandardHelpOptions = true,
      description = {"Start a sandbox desktop in the background and register it with the running 'agentdesk serve'.",
          "Isolated by default: own mount, PID, user, IPC and network namespaces (bubblewrap), a private"
              + " home and /tmp, the host's files hidden but /usr and a few /etc files (read-only), no host X"
              + " display, D-Bus or SSH agent, no network. The ACI url is the only way in; exec runs inside.",
          "With --json it prints id, name, url, token_file (the ACI token), pid, state; serve lists it under"
              + " the same id."})
  static final class Start implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec cmd;

    @Option(names = "--name", paramLabel = "N", description = "A name for 'sandbox stop' and the dashboard"
        + " (default sandbox-ID).")
    String name;

    @Option(names = "--app", paramLabel = "CMD", description = "Start CMD on the desktop (repeatable), split into"
        + " words as a shell would (quotes, backslashes; no variables or globs).")
    List<String> apps = new ArrayList<>();

    @Option(names = "--browser", paramLabel = "URL", arity = "0..1", fallbackValue = "about:blank",
        description = "Start Chromium with its accessibility tree exposed (so pages are observable by element"
            + " refs), on URL (default about:blank).")
    String browser;

    @Option(names = "--network", description = "Give the sandbox the host's network, loopback included (host X"
        + " displays stay out of reach through Landlock; needs Linux 6.12+).")
    boolean network;

    @Option(names = "--screen", paramLabel = "WxH", defaultValue = "1280x800",
        description = "The desktop's size (default ${DEFAULT-VALUE}).")
    String screen;

    @Option(names = "--record", paramLabel = "DIR", description = "Record every ACI message into the new folder DIR"
        + " (docs/recording.md).")
    Path record;

    @Option(names = "--server", paramLabel = "URL", description = "The agentdesk server to register with (then"
        + " failing to register is an error). Default: http://127.0.0.1:7420/ when it runs.")
    URI server;

    @Option(names = "--token-file", paramLabel = "FILE",
        description = "The server's token file. Default: $XDG_DATA_HOME/agentdesk/token.")
    Path serverTokenFile;

    @Option(names = "--no-register", description = "Do not register with serve.")
    boolean noRegister;

    @Option(names = "--json", description = "Print the sandbox as JSON: id, name, url, token_file, state, ….")
    boolean json;

    @Override
    public Integer call() throws Exception {
      List<List<String>> argvs = new ArrayList<>();
      for (String app : apps) {
        List<String> words;
        try {
          words = ShellWords.split(app);
        } catch (IllegalArgumentException e) {
          throw new UserError("--app: " + e.getMessage());
        }
        if (words.isEmpty()) {
          throw new UserError("--app needs a command, e.g. --app \"zenity --entry\"");
        }
        argvs.add(words);
      }
      int[] size = screenSize(screen);
      if (name != null && !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,62}")) {
        throw new UserError("--name must be 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit");
      }
      if (!bubblewrapFound()) {
        throw new UserError("bwrap not found on PATH; install bubblewrap (Debian: apt-get install bubblewrap)");
      }
      Path root = SandboxDirs.root();
      String id = HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
      String theName = name == null ? "sandbox-" + id : name;
      for (SandboxState s : Registry.all(root)) {
        if (s.name().equals(theName) && "running".equals(s.state())) {
          throw new UserError("a sandbox named " + theName + " is running (" + s.id() + "); stop it or pick another --name");
        }
      }
      Path dir = SandboxDirs.makePrivate(root.resolve(id));
      Path sock = dir.resolve(SandboxDirs.DOOR).resolve(SandboxDirs.SOCKET);
      if (sock.toString().getBytes(StandardCharsets.UTF_8).length > 107) {
        throw new UserError("the sandbox folder's path is too long for a unix socket: " + sock
            + " (set XDG_RUNTIME_DIR to a shorter folder)");
      }
      SandboxDirs.makePrivate(dir.resolve(SandboxDirs.DOOR));
      SandboxDirs.makePrivate(dir.resolve(SandboxDirs.LOGS));
      byte[] secret = new byte[24];
      new SecureRandom().nextBytes(secret);
      SandboxDirs.writeAtomically(dir.resolve(SandboxDirs.TOKEN), Base64.getUrlEncoder().withoutPadding()
          .encodeToString(secret) + "\n");
      String recordDir = null;
      if (record != null) {
        Path r = record.toAbsolutePath().normalize();
        if (Files.exists(r) && (!Files.isDirectory(r) || hasEntries(r))) {
          throw new UserError("--record " + r + " exists and is not an empty folder");
        }
        Files.createDirectories(r);
        recordDir = r.toString();
      }
      String serverUrl = noRegister ? null : (server == null ? ServerClient.DEFAULT_URL : server).toString();
      SandboxSpec spec = new SandboxSpec(id, theName, argvs, browser, network, serverUrl, server != null && !noRegister,
          serverTokenFile == null ? null : serverTokenFile.toAbsolutePath().toString(), recordDir, size[0], size[1],
          DisplayNumbers.free());
      SandboxDirs.writeAtomically(dir.resolve(SandboxDirs.SPEC), Json.MAPPER.writeValueAsString(spec));
      SandboxState state = spawnSupervisor(dir);
      PrintWriter out = cmd.commandLine().getOut();
      if (!"running".equals(state.state())) {
        String logs = Supervisor.tail(dir.resolve(SandboxDirs.LOG));
        Registry.remove(dir);
        throw new IOException("sandbox did not start: " + state.error() + (logs.isEmpty() ? "" : " (log: " + logs + ")"));
      }
      if (json) {
        out.println(Supervisor.json(state));
      } else {
        out.printf("sandbox %s (%s) running%n  url         %s%n  token file  %s%n  network     %s%n  serve       %s%n",
            state.id(), state.name(), state.url(), state.token_file(), state.network() ? "host (--network)" : "none",
            state.registered() ? "registered at " + state.server() : "not registered");
        out.printf("Drive it: agentdesk aci --url %s --token-file %s observe%nStop it:  agentdesk sandbox stop %s%n",
            state.url(), state.token_file(), state.name());
      }
      out.flush();
      return 0;
    }

    private static boolean hasEntries(Path dir) throws IOException {
      try (var s = Files.list(dir)) {
        return s.findAny().isPresent();
      }
    }

    /** Starts the supervisor detached (own session, output in the folder) and reads its one line. */
    private static SandboxState spawnSupervisor(Path dir) throws Exception {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      List<String> argv = new ArrayList<>();
      if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
        argv.addAll(List.of("/usr/bin/setsid", "--"));
      }
      argv.addAll(List.of(java, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
          "dev.agentdesk.app.Main", "sandbox", "supervise", dir.toString()));
      ProcessBuilder pb = new ProcessBuilder(argv);
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      pb.redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve(SandboxDirs.LOG).toFile()));
      Process p = pb.start();
      CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
        try {
          return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
          return null;
        }
      });
      String first;
      try {
        first = line.get(Supervisor.READY_TIMEOUT_MS + 30_000, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        p.destroy();
        first = null;
      }
      p.getInputStream().close();
      if (first == null) {
        throw new IOException("the sandbox's supervisor ended without a word; see " + dir.resolve(SandboxDirs.LOG)
            + ": " + Supervisor.tail(dir.resolve(SandboxDirs.LOG)));
      }
      return Json.MAPPER.readValue(first, SandboxState.class);
    }
  }

  static int[] screenSize(String size) {
    String[] wh = size.toLowerCase(Locale.ROOT).split("x");
    try {
      int w = Integer.parseInt(wh[0]);
      int h = Integer.parseInt(wh[1]);
      if (wh.length == 2 && w >= 64 && h >= 64 && w <= 8192 && h <= 8192) {
        return new int[] {w, h};
      }
    } catch (RuntimeException e) {
      // the message below
    }
    throw new UserError("--screen expects WIDTHxHEIGHT between 64x64 and 8192x8192, e.g. 1280x800, got '" + size + "'");
  }

  static boolean bubblewrapFound() {
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, Bubblewrap.BWRAP))) {
        return true;
      }
    }
    return false;
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List this user's sandboxes.")
  static final class ListSandboxes implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec cmd;

    @Option(names = "--json", description = "Print a JSON array of the sandboxes (the fields of 'start --json').")
    boolean json;

    @Override
    public Integer call() throws Exception {
      List<SandboxState> all = Registry.all(SandboxDirs.root());
      PrintWriter out = cmd.commandLine().getOut();
      if (json) {
        out.println(Json.MAPPER.writeValueAsString(all));
      } else if (all.isEmpty()) {
        out.println("no sandboxes (start one: agentdesk sandbox start --app xterm)");
      } else {
        for (SandboxState s : all) {
          out.printf("%-9s %-20s %-8s %-26s %s%n", s.id(), s.name(), s.state(), s.url() == null ? "-" : s.url(),
              s.network() ? "network" : "no network");
        }
      }
      out.flush();
      return 0;
    }
  }

  @Command(name = "stop", mixinStandardHelpOptions = true,
      description = "Stop a sandbox: every process of it ends (apps, browser, window manager, runtime, X server),"
          + " serve forgets it, and its folder is removed.")
  static final class Stop implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec cmd;

    @Parameters(paramLabel = "ID|NAME", description = "The sandbox's id or name (agentdesk sandbox list).")
    String which;

    @Override
    public Integer call() throws Exception {
      Path root = SandboxDirs.root();
      SandboxState s = Registry.find(root, which)
          .orElseThrow(() -> new UserError("no sandbox " + which + " (agentdesk sandbox list)"));
      Registry.stop(root, s);
      PrintWriter out = cmd.commandLine().getOut();
      out.printf("stopped %s (%s)%n", s.id(), s.name());
      out.flush();
      return 0;
    }
  }

  @Command(name = "supervise", hidden = true, description = "Internal: the supervisor 'sandbox start' runs detached.")
  static final class Supervise implements Callable<Integer> {
    @Parameters(paramLabel = "DIR")
    Path dir;

    @Override
    public Integer call() throws Exception {
      SandboxSpec spec = Json.MAPPER.readValue(Files.readString(dir.resolve(SandboxDirs.SPEC)), SandboxSpec.class);
      PrintStream out = System.out;
      // stdout is the pipe 'start' reads one line from; everything else goes to the log (stderr)
      System.setOut(System.err);
      return new Supervisor(dir, spec, System.err).run(out);
    }
  }

  @Command(name = "guest", hidden = true, description = "Internal: the sandbox's first program, inside bubblewrap.")
  static final class GuestCommand implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
      return new Guest(Guest.readSpec()).run();
    }
  }
}
