package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One command starts a whole desktop that serve lists under the sandbox's own id; the window
 * manager makes a click move keyboard focus, so typed text lands in the app; {@code sandbox stop}
 * ends every process of it, which the test proves by scanning /proc for the sandbox's PID
 * namespace; serve forgets it.
 */
class SandboxLifecycleTest {
  @Test
  void oneCommandStartsARegisteredDesktopAndStopEndsEveryProcessOfIt(@TempDir Path dir) throws Exception {
    try (TestServer s = TestServer.start(); SandboxCli cli = new SandboxCli(dir)) {
      Path serveToken = dir.resolve("serve-token");
      Files.writeString(serveToken, s.token.orElseThrow());
      Files.setPosixFilePermissions(serveToken, PosixFilePermissions.fromString("rw-------"));

      JsonNode sb = cli.start("--name", "lifecycle", "--app", "zenity --entry --title 'Rename file' --text 'New name:'",
          "--server", s.base, "--token-file", serveToken.toString());
      String id = sb.path("id").asText();
      assertThat(id).matches("[0-9a-f]{8}");
      assertThat(sb.path("name").asText()).isEqualTo("lifecycle");
      assertThat(sb.path("url").asText()).startsWith("ws://127.0.0.1:");
      assertThat(sb.path("registered").asBoolean()).isTrue();
      Path tokenFile = Path.of(sb.path("token_file").asText());
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
      Path folder = tokenFile.getParent();
      assertThat(folder).startsWith(cli.runtimeDir);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");

      // serve lists it under the same id, connected to the url start printed
      JsonNode listed = byId(s.get("/api/sandboxes").json(), id);
      assertThat(listed).as("GET /api/sandboxes lists %s", id).isNotNull();
      assertThat(listed.path("name").asText()).isEqualTo("lifecycle");
      assertThat(listed.path("url").asText()).isEqualTo(sb.path("url").asText());
      assertThat(listed.path("connected").asBoolean()).isTrue();

      String tree = awaitTree(s, id, t -> t.contains("New name:"));
      String entry = ref(tree, "text \\(editable");
      String ok = ref(tree, "push_button \\(is_default\\) \"OK\"");
      // a click by ref moves focus (openbox), the typed text lands in the entry
      assertThat(s.post("/api/sandboxes/" + id + "/act", "{\"verb\":\"click\",\"ref\":\"" + entry + "\"}").status())
          .isEqualTo(200);
      assertThat(s.post("/api/sandboxes/" + id + "/act", "{\"verb\":\"type\",\"text\":\"report.txt\"}").status())
          .isEqualTo(200);
      awaitTree(s, id, t -> t.contains("Value:\"report.txt\""));

      JsonNode local = cli.run("sandbox", "list", "--json").json();
      assertThat(local).hasSize(1);
      assertThat(local.get(0).path("id").asText()).isEqualTo(id);
      assertThat(local.get(0).path("state").asText()).isEqualTo("running");

      long supervisor = sb.path("pid").asLong();
      String ns = SandboxCli.pidNamespace(supervisor);
      Set<Long> inside = SandboxCli.processesIn(ns);
      List<String> names = new ArrayList<>();
      for (long pid : inside) {
        names.add(Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip());
      }
      assertThat(names).contains("Xvfb", "openbox", "dbus-daemon", "zenity", "java", "bwrap");

      // OK by ref: zenity prints the entry's text and exits; its output is in the sandbox's logs
      assertThat(s.post("/api/sandboxes/" + id + "/act", "{\"verb\":\"click\",\"ref\":\"" + ok + "\"}").status())
          .isEqualTo(200);
      Path out = folder.resolve("logs/app-1.out");
      awaitTrue(() -> Files.readString(out).equals("report.txt\n"), "zenity printed the typed text");

      SandboxCli.Result stop = cli.run("sandbox", "stop", "lifecycle");
      assertThat(stop.exit()).as(stop.err()).isZero();
      assertThat(stop.out()).contains("stopped " + id + " (lifecycle)");
      assertThat(SandboxCli.processesIn(ns)).as("processes left in the sandbox's PID namespace").isEmpty();
      for (long pid : inside) {
        assertThat(SandboxCli.alive(pid)).as("process %d of the sandbox", pid).isEmpty();
      }
      assertThat(SandboxCli.alive(supervisor)).isEmpty();
      assertThat(byId(s.get("/api/sandboxes").json(), id)).as("serve forgot the stopped sandbox").isNull();
      assertThat(folder).doesNotExist();
      assertThat(cli.run("sandbox", "list", "--json").json()).isEmpty();

      SandboxCli.Result again = cli.run("sandbox", "stop", "lifecycle");
      assertThat(again.exit()).isEqualTo(2);
      assertThat(again.err()).contains("no sandbox lifecycle");
    }
  }

  @Test
  void aKilledSupervisorTakesTheWholeSandboxWithItAndStopCleansUp(@TempDir Path dir) throws Exception {
    try (TestServer s = TestServer.start(); SandboxCli cli = new SandboxCli(dir)) {
      Path serveToken = dir.resolve("serve-token");
      Files.writeString(serveToken, s.token.orElseThrow());
      Files.setPosixFilePermissions(serveToken, PosixFilePermissions.fromString("rw-------"));
      JsonNode sb = cli.start("--app", "xterm", "--server", s.base, "--token-file", serveToken.toString());
      String id = sb.path("id").asText();
      long supervisor = sb.path("pid").asLong();
      String ns = SandboxCli.pidNamespace(supervisor);
      assertThat(SandboxCli.processesIn(ns)).isNotEmpty();
      // xterm maps its window (as root inside a user namespace it would exit: its setgroups is refused)
      SandboxFocusTest.window(sb, "xterm");

      ProcessHandle.of(supervisor).orElseThrow().destroyForcibly(); // SIGKILL: no orderly stop at all
      awaitTrue(() -> SandboxCli.processesIn(ns).isEmpty(), "bwrap --die-with-parent ended the namespace");
      JsonNode listed = cli.run("sandbox", "list", "--json").json();
      assertThat(listed.get(0).path("state").asText()).isEqualTo("stopped");
      assertThat(listed.get(0).path("error").asText()).contains("supervisor (pid " + supervisor + ") is gone");
      assertThat(byId(s.get("/api/sandboxes").json(), id)).as("serve still has it: nobody told it").isNotNull();

      SandboxCli.Result stop = cli.run("sandbox", "stop", id);
      assertThat(stop.exit()).as(stop.err()).isZero();
      assertThat(byId(s.get("/api/sandboxes").json(), id)).as("stop told serve").isNull();
      assertThat(Path.of(sb.path("dir").asText())).doesNotExist();
    }
  }

  @Test
  void badInputIsAUserErrorAndStartsNothing(@TempDir Path dir) throws Exception {
    try (SandboxCli cli = new SandboxCli(dir)) {
      SandboxCli.Result quote = cli.run("sandbox", "start", "--no-register", "--app", "zenity --text 'oops");
      assertThat(quote.exit()).isEqualTo(2);
      assertThat(quote.err()).contains("--app: unterminated single quote");
      SandboxCli.Result screen = cli.run("sandbox", "start", "--no-register", "--screen", "10x10");
      assertThat(screen.exit()).isEqualTo(2);
      assertThat(screen.err()).contains("--screen expects WIDTHxHEIGHT");
      SandboxCli.Result name = cli.run("sandbox", "start", "--no-register", "--name", "a b");
      assertThat(name.exit()).isEqualTo(2);
      assertThat(name.err()).contains("--name must be");
      SandboxCli.Result server = cli.run("sandbox", "start", "--server", "http://127.0.0.1:9/", "--token-file",
          dir.resolve("no-such-token").toString());
      assertThat(server.exit()).isEqualTo(1);
      assertThat(server.err()).contains("sandbox did not start");
      SandboxCli.Result app = cli.run("sandbox", "start", "--no-register", "--app", "no-such-program-xyz");
      assertThat(app.exit()).isEqualTo(1);
      assertThat(app.err()).contains("sandbox did not start").contains("no-such-program-xyz");
      assertThat(cli.run("sandbox", "list", "--json").json()).isEmpty();
    }
  }

  static JsonNode byId(JsonNode list, String id) {
    for (JsonNode n : list) {
      if (n.path("id").asText().equals(id)) {
        return n;
      }
    }
    return null;
  }

  /** The ref of the first tree line matching {@code role} (a regex), e.g. {@code e6}. */
  static String ref(String tree, String role) {
    Matcher m = Pattern.compile("(e\\d+) " + role).matcher(tree);
    assertThat(m.find()).as("a line with %s in:%n%s", role, tree).isTrue();
    return m.group(1);
  }

  /** serve's observe of the sandbox, re-read until {@code ok} holds (GTK shows its tree after the window maps). */
  static String awaitTree(TestServer s, String id, Predicate<String> ok) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    String last = "";
    while (System.nanoTime() < deadline) {
      TestServer.Response r = s.get("/api/sandboxes/" + id + "/observe");
      if (r.status() == 200) {
        last = r.json().path("tree_text").asText();
        if (ok.test(last)) {
          return last;
        }
      } else {
        last = r.body();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the tree never matched; last:\n" + last);
  }

  interface Check {
    boolean ok() throws Exception;
  }

  static void awaitTrue(Check c, String what) throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < deadline) {
      try {
        if (c.ok()) {
          return;
        }
      } catch (java.io.IOException notYet) {
        // the file is not there yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError("timed out waiting until " + what);
  }
}
