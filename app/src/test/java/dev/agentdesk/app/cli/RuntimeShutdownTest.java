package dev.agentdesk.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdesk runtime} as a real process on a real Xvfb, stopped by a signal at random
 * moments while several clients type non-Latin text (which borrows spare keycodes), press combos,
 * run a screencast, a streamed and a buffered exec. SIGTERM goes to the runtime (a supervisor),
 * SIGINT to its whole process group (Ctrl-C in a terminal). Every stop must end the process within 5 s
 * with status 0 or 143, write no crash report, leave no child behind, stop its own Xvfb
 * ({@code --xvfb}) and give the shared display its keymap back ({@code --display}).
 *
 * <p>The moments come from a seeded Random ({@code -Dagentdesk.shutdown.seed=N} replays another
 * set); they range from right after the startup line (no client yet) to well into the load.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 800, height = 600)
class RuntimeShutdownTest {
  private static final int SIGTERM_TRIALS = 20;
  private static final int SIGINT_TRIALS = 4;
  private static final long STOP_LIMIT_MS = 5000;
  private static final Pattern LISTENING = Pattern.compile("listening on ws://127\\.0\\.0\\.1:(\\d+)/ \\(display (:\\d+)");
  private static final String TOKEN = "shutdown-token";

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void signalsAtRandomMomentsUnderLoadStopCleanly(XDisplay shared, @TempDir Path dir) throws Exception {
    Random random = new Random(Long.getLong("agentdesk.shutdown.seed", 17));
    String keymap = xmodmap(shared.name());
    List<String> failures = new ArrayList<>();
    long slowest = 0;
    int remapped = 0;
    int withChildren = 0;
    int trials = SIGTERM_TRIALS + SIGINT_TRIALS;
    for (int i = 0; i < trials; i++) {
      boolean ownXvfb = i % 2 == 1;
      String signal = i < SIGTERM_TRIALS ? "TERM" : "INT";
      long delayMs = random.nextInt(1800);
      Trial t = new Trial(i, dir.resolve("trial-" + i), ownXvfb ? null : shared.name(), keymap, signal, delayMs);
      t.run();
      slowest = Math.max(slowest, t.stopMs);
      remapped += t.remappedBeforeStop ? 1 : 0;
      withChildren += t.execChildren > 0 ? 1 : 0;
      if (!ownXvfb && !xmodmap(shared.name()).equals(keymap)) {
        t.problems.add("the shared display's keymap was not restored");
      }
      if (!t.problems.isEmpty()) {
        failures.add(t + ": " + t.problems + "\n  stderr: " + t.stderr());
      }
    }
    System.out.printf("runtime shutdown: %d trials (%d SIGTERM, %d SIGINT), %d clean, slowest stop %d ms,"
        + " %d stopped with borrowed keycodes, %d with exec children%n", trials, SIGTERM_TRIALS, SIGINT_TRIALS,
        trials - failures.size(), slowest, remapped, withChildren);
    assertThat(failures).isEmpty();
    // the load must really have reached the states the checks are about
    assertThat(remapped).as("trials stopped while keycodes were borrowed").isGreaterThanOrEqualTo(3);
    assertThat(withChildren).as("trials stopped while exec children ran").isGreaterThanOrEqualTo(5);
  }

  @Test
  void ownXvfbDiesWithAKilledRuntime(@TempDir Path dir) throws Exception {
    Trial t = new Trial(0, dir, null, null, "KILL", 0);
    Process p = t.start();
    t.awaitListening(p);
    List<ProcessHandle> kids = p.descendants().toList();
    assertThat(kids).as("the runtime's own Xvfb").anySatisfy(h ->
        assertThat(h.info().command().orElse("")).endsWith("Xvfb"));
    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    // no close ran: the parent-death signal set by setpriv is what ends Xvfb
    List<ProcessHandle> left = survivors(kids, 3000);
    left.forEach(ProcessHandle::destroyForcibly);
    assertThat(left).isEmpty();
    assertThat(Path.of("/tmp/.X11-unix/X" + t.display.substring(1))).doesNotExist();
  }

  /** One start, load, signal and check. */
  private final class Trial {
    final int index;
    final Path dir;
    final String sharedDisplay;
    /** {@code xmodmap -pke} of the shared display before any runtime touched it. */
    final String keymap;
    final String signal;
    final long delayMs;
    /** Makes this trial's exec children findable in /proc by their command line. */
    final String marker;
    final List<String> problems = new ArrayList<>();
    String display;
    long stopMs;
    boolean remappedBeforeStop;
    int execChildren;

    Trial(int index, Path dir, String sharedDisplay, String keymap, String signal, long delayMs) {
      this.index = index;
      this.dir = dir;
      this.sharedDisplay = sharedDisplay;
      this.keymap = keymap;
      this.signal = signal;
      this.delayMs = delayMs;
      this.marker = String.format("30.%d%03d", ProcessHandle.current().pid(), index); // same length: none contains another
    }

    Process start() throws IOException {
      Files.createDirectories(dir);
      Path token = Files.writeString(dir.resolve("token"), TOKEN);
      String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      // its own process group, like a command started from a shell, so that SIGINT can go to the
      // whole group as a terminal's Ctrl-C does (setsid execs in place: the pid stays the JVM's)
      List<String> cmd = new ArrayList<>(List.of("setsid", "--"));
      if (sigintIgnoredHere()) {
        cmd.addAll(List.of("env", "--default-signal=INT")); // a background job's SIGINT is inherited ignored
      }
      cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
          "dev.agentdesk.app.Main", "runtime", "--listen", "127.0.0.1:0", "--token-file", token.toString(),
          "--allow-exec"));
      cmd.addAll(sharedDisplay == null ? List.of("--xvfb", "640x480") : List.of("--display", sharedDisplay));
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
      pb.redirectError(dir.resolve("stderr.txt").toFile());
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      return pb.start();
    }

    /** Reads the startup line (port and display) within 30 s. */
    int awaitListening(Process p) throws Exception {
      CompletableFuture<Matcher> line = CompletableFuture.supplyAsync(() -> {
        try {
          BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
          for (String l; (l = out.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(l);
            if (m.find()) {
              return m;
            }
          }
          return null;
        } catch (IOException e) {
          return null;
        }
      });
      Matcher m = line.get(30, TimeUnit.SECONDS);
      assertThat(m).as("startup line; stderr: %s", stderr()).isNotNull();
      display = m.group(2);
      return Integer.parseInt(m.group(1));
    }

    void run() throws Exception {
      Process p = start();
      int port = awaitListening(p);
      List<LoadClient> clients = List.of(
          LoadClient.start("typist", http, port, TOKEN, List.of(),
              List.of("{\"verb\":\"type_text\",\"text\":\"héllo ☃ 日本 #\"}", "{\"verb\":\"key\",\"keys\":\"ctrl+shift+u\"}")),
          LoadClient.start("caster", http, port, TOKEN,
              List.of("{\"verb\":\"start_screencast\",\"fps\":10,\"max_long_edge\":400}",
                  "{\"verb\":\"exec\",\"argv\":[\"sleep\",\"" + marker + "\"],\"stream\":true}"),
              List.of("{\"verb\":\"screenshot\",\"max_long_edge\":400}", "{\"verb\":\"type_text\",\"text\":\"Ωμέγα #\"}")),
          LoadClient.start("execer", http, port, TOKEN,
              List.of("{\"verb\":\"exec\",\"shell\":\"while :; do echo tick; sleep 0.05; done; : " + marker
                  + "\",\"stream\":true}"),
              List.of("{\"verb\":\"exec\",\"argv\":[\"sleep\",\"" + marker + "\"]}")));
      try {
        Thread.sleep(delayMs);
        List<ProcessHandle> before = p.descendants().toList();
        execChildren = (int) before.stream()
            .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false)).count();
        if (sharedDisplay != null) {
          remappedBeforeStop = !xmodmap(sharedDisplay).equals(keymap);
        }
        long sent = System.nanoTime();
        signal(p);
        boolean exited = p.waitFor(STOP_LIMIT_MS * 2, TimeUnit.MILLISECONDS);
        stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        if (!exited) {
          problems.add("still running " + stopMs + " ms after SIG" + signal);
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } else {
          int rc = p.exitValue();
          if (rc != 0 && rc != 143) {
            problems.add("exit status " + rc);
          }
          if (stopMs >= STOP_LIMIT_MS) {
            problems.add("stop took " + stopMs + " ms");
          }
        }
        List<String> crashes;
        try (Stream<Path> files = Files.list(dir)) {
          crashes = files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("hs_err_pid")).toList();
        }
        if (!crashes.isEmpty()) {
          problems.add("crash reports " + crashes);
        }
        List<ProcessHandle> left = survivors(before, 2000);
        if (!left.isEmpty()) {
          problems.add("children left: " + left.stream().map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).toList());
          left.forEach(ProcessHandle::destroyForcibly);
        }
        List<ProcessHandle> marked = withArgument(marker);
        if (!marked.isEmpty()) {
          problems.add("exec children left (by command line): " + marked.stream().map(ProcessHandle::pid).toList());
          marked.forEach(ProcessHandle::destroyForcibly);
        }
        if (sharedDisplay == null && Files.exists(Path.of("/tmp/.X11-unix/X" + display.substring(1)))) {
          problems.add("own Xvfb " + display + " still has its socket");
        }
      } finally {
        for (LoadClient c : clients) {
          c.close();
        }
        p.destroyForcibly();
      }
    }

    private void signal(Process p) throws Exception {
      if (signal.equals("TERM")) {
        p.destroy(); // SIGTERM to the runtime, as a supervisor sends it
      } else {
        // to the process group, as Ctrl-C in a terminal: the runtime's own Xvfb must not get it
        new ProcessBuilder("kill", "-s", signal, "--", "-" + p.pid()).start().waitFor(5, TimeUnit.SECONDS);
      }
    }

    String stderr() {
      try {
        return Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        return "(no stderr: " + e + ")";
      }
    }

    @Override
    public String toString() {
      return "trial " + index + " (SIG" + signal + " after " + delayMs + " ms, "
          + (sharedDisplay == null ? "--xvfb" : "--display " + sharedDisplay) + ", stop " + stopMs + " ms)";
    }
  }

  private static String xmodmap(String display) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("xmodmap", "-pke");
    pb.environment().put("DISPLAY", display);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(out).as("xmodmap -pke on %s", display).contains("keycode");
    return out;
  }

  /** Those of {@code processes} still running (zombies awaiting their reaper do not count) after up to {@code graceMs}. */
  private static List<ProcessHandle> survivors(List<ProcessHandle> processes, long graceMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
    List<ProcessHandle> left;
    do {
      left = processes.stream().filter(h -> h.isAlive() && !zombie(h.pid())).toList();
      if (left.isEmpty()) {
        break;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    return left;
  }

  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException gone) {
      return true;
    }
  }

  /** Live processes with an argument containing {@code marker}. */
  private static List<ProcessHandle> withArgument(String marker) {
    return ProcessHandle.allProcesses()
        .filter(h -> !zombie(h.pid()))
        .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false))
        .toList();
  }

  /** Whether this JVM ignores SIGINT (then its children would too: ignored signals survive exec). */
  private static boolean sigintIgnoredHere() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("SigIgn:")) {
          return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 0x2) != 0;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // no /proc: assume the default disposition
    }
    return false;
  }
}
