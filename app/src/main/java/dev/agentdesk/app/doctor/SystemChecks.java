package dev.agentdesk.app.doctor;

import dev.agentdesk.app.sandbox.Landlock;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The machine: the Java runtime, git, the sandbox's X server and buses, the agent CLIs on PATH. */
final class SystemChecks {
  /** The agent CLIs agentdesk starts and reads, by the command each installs. */
  static final List<String> AGENTS = List.of("claude", "codex", "gemini", "opencode", "copilot", "pi", "aider");
  private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(?:\\.\\d+)?(?:[-+.][0-9A-Za-z.]+)?");
  /** Where Debian's at-spi2-core puts the accessibility bus launcher. */
  private static final List<String> ATSPI_LAUNCHERS = List.of("/usr/libexec/at-spi-bus-launcher",
      "/usr/lib/at-spi2-core/at-spi-bus-launcher", "/usr/lib/at-spi2/at-spi-bus-launcher");

  private final Programs programs;
  private final Duration timeout;
  private final TestedVersions tested;

  SystemChecks(Programs programs, Duration timeout, TestedVersions tested) {
    this.programs = programs;
    this.timeout = timeout;
    this.tested = tested;
  }

  List<Check> all() {
    List<Check> out = new ArrayList<>();
    out.add(runtime());
    out.add(git());
    out.add(onPath("Xvfb", "Xvfb", "X virtual frame buffer for 'agentdesk runtime' (the sandbox)",
        "apt-get install xvfb (only the sandbox needs it)"));
    out.add(atspi());
    out.add(onPath("D-Bus", "dbus-daemon", "session bus for the sandbox's applications and AT-SPI",
        "apt-get install dbus dbus-x11 (only the sandbox needs it)"));
    out.add(onPath("bubblewrap", "bwrap", "the isolation of 'agentdesk sandbox start'",
        "apt-get install bubblewrap (only 'sandbox start' needs it)"));
    out.add(onPath("window manager", "openbox", "a sandbox desktop's window manager: focus follows clicks",
        "apt-get install openbox (only 'sandbox start' needs it)"));
    out.add(landlock(Landlock.abi()));
    for (String agent : AGENTS) {
      out.add(agent(agent));
    }
    return out;
  }

  static Check runtime() {
    String home = System.getProperty("java.home");
    String appHome = System.getProperty("agentdesk.home");
    boolean bundled = appHome != null && Path.of(home).normalize().startsWith(Path.of(appHome).normalize());
    boolean cds = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .anyMatch(a -> a.startsWith("-XX:SharedArchiveFile="));
    String detail = "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ") at "
        + home + (bundled ? ", bundled with agentdesk" : ", not bundled") + (cds ? "; class-data sharing archive in use" : "");
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("java_version", System.getProperty("java.version"));
    data.put("java_home", home);
    data.put("bundled", bundled);
    data.put("cds_archive", cds);
    int feature = Runtime.version().feature();
    Check c = feature >= 17 ? Check.ok("runtime", detail)
        : Check.fail("runtime", detail, "agentdesk needs Java 17 or newer: use the release (it bundles one)");
    return c.with(data).asRequired();
  }

  Check git() {
    Optional<Path> git = programs.find("git");
    if (git.isEmpty()) {
      return Check.warn("git", "not on PATH: agent sessions cannot make their worktrees",
          "apt-get install git (agents need it; serve and history do not)");
    }
    Programs.Run r = programs.run(List.of(git.get().toString(), "--version"), timeout);
    return r.exit() == 0 ? Check.ok("git", r.firstLine() + " at " + git.get())
        : Check.warn("git", git.get() + " --version failed: " + r.firstLine(), "reinstall git (apt-get install --reinstall git)");
  }

  private Check onPath(String name, String program, String what, String fix) {
    Optional<Path> p = programs.find(program);
    return p.map(path -> Check.ok(name, path + " (" + what + ")"))
        .orElseGet(() -> Check.warn(name, program + " not on PATH (" + what + ")", fix));
  }

  /** Landlock's scopes keep a sandbox started with --network away from the host's X displays. */
  static Check landlock(int abi) {
    Map<String, Object> data = Map.of("abi", abi, "needed", Landlock.SCOPES_ABI);
    if (abi >= Landlock.SCOPES_ABI) {
      return Check.ok("Landlock", "ABI " + abi + ": 'sandbox start --network' keeps the host's X displays out of reach")
          .with(data);
    }
    return Check.warn("Landlock", (abi == 0 ? "off or unknown on this kernel" : "ABI " + abi + ", scopes need "
        + Landlock.SCOPES_ABI) + ": 'sandbox start --network' refuses to run (without --network a sandbox has no"
        + " network and is isolated all the same)", "a Linux 6.12 or newer kernel with Landlock enabled (lsm=…,landlock)")
        .with(data);
  }

  private Check atspi() {
    for (String launcher : ATSPI_LAUNCHERS) {
      if (Files.isExecutable(Path.of(launcher))) {
        return Check.ok("AT-SPI bus", launcher + " (the sandbox's accessibility tree)");
      }
    }
    return Check.warn("AT-SPI bus", "at-spi-bus-launcher not found (the sandbox's accessibility tree: aci observe)",
        "apt-get install at-spi2-core (only the sandbox needs it)");
  }

  Check agent(String agent) {
    String name = "agent " + agent;
    Optional<Path> p = programs.find(agent);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("agent", agent);
    List<String> pinned = tested.of(agent);
    data.put("tested_versions", pinned);
    if (p.isEmpty()) {
      data.put("path", null);
      return Check.info(name, "not on PATH").with(data);
    }
    data.put("path", p.get().toString());
    Programs.Run r = programs.run(List.of(p.get().toString(), "--version"), timeout);
    if (r.timedOut()) {
      data.put("version", null);
      data.put("tested", "unknown");
      return Check.warn(name, p.get() + " --version did not answer within " + timeout.toSeconds() + " s",
          "run '" + agent + " --version' yourself; a first run may be waiting for a sign-in or an update").with(data);
    }
    Matcher m = VERSION.matcher(r.firstLine());
    String version = m.find() ? m.group() : null;
    data.put("version", version);
    if (r.exit() != 0 || version == null) {
      data.put("tested", "unknown");
      return Check.warn(name, p.get() + " --version exited " + r.exit() + ": " + r.firstLine(),
          "check that '" + agent + " --version' works in your shell").with(data);
    }
    String tested;
    String note;
    if (this.tested.source().isEmpty()) {
      tested = "unknown";
      note = "not known whether agentdesk was tested with it (no list of tested versions in this build)";
    } else if (pinned.contains(version)) {
      tested = "yes";
      note = "the version agentdesk was tested with";
    } else if (pinned.isEmpty()) {
      tested = "no";
      note = "not in agentdesk's tested agents";
    } else {
      tested = "no";
      note = "agentdesk was tested with " + String.join(", ", pinned);
    }
    data.put("tested", tested);
    return Check.ok(name, version + " at " + p.get() + "; " + note).with(data);
  }
}
