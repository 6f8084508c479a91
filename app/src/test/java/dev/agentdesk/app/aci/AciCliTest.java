package dev.agentdesk.app.aci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.testkit.TestRuntime;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import dev.agentdesk.app.cli.AgentdeskCommand;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code agentdesk aci ...} end to end: the real CLI and SDK against an in-process runtime. */
class AciCliTest {
  private record Run(int exit, String out, String err) {}

  @TempDir
  Path dir;

  private TestRuntime runtime;
  private Path tokenFile;

  @BeforeEach
  void start() throws Exception {
    runtime = new TestRuntime(TestRuntime.fullCapabilities());
    tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, TestRuntime.TOKEN + "\n");
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  private Run aci(String... args) {
    List<String> all = new ArrayList<>(List.of("aci", "--url", runtime.uri().toString(), "--token-file",
        tokenFile.toString()));
    all.addAll(List.of(args));
    return run(all.toArray(String[]::new));
  }

  private static Run run(String... args) {
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void infoShowsTheWelcomePlatformAndScreenSize() {
    Run r = aci("info");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("runtime    test-runtime 0.0.1 (linux)", "platform   linux", "screen     320x200",
        "verbs      click, double_click", "features   binary_frames frame_dedup observe_after_act structured_observation");
  }

  @Test
  void jsonPrintsTheWireMessagesOnePerLine() {
    Run r = aci("--json", "info");
    assertThat(r.exit()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("{\"type\":\"welcome\"");
    for (String line : lines) {
      assertThat(WireContract.bundled().validate("#", line)).isEmpty();
    }
    Run click = aci("click", "10", "20", "--json");
    assertThat(click.out().strip()).matches("\\{\"type\":\"ack\",\"call_id\":\"[^\"]+\",\"ok\":true}");
  }

  @Test
  void connectionOptionsMayFollowTheSubcommandsName() {
    String url = runtime.uri().toString();
    Run after = run("aci", "click", "10", "20", "--url", url, "--token-file", tokenFile.toString(), "--json");
    assertThat(after.exit()).as(after.err()).isZero();
    assertThat(after.out().strip()).matches("\\{\"type\":\"ack\",\"call_id\":\"[^\"]+\",\"ok\":true}");
    Run mixed = run("aci", "--url", url, "info", "--token-file", tokenFile.toString());
    assertThat(mixed.exit()).as(mixed.err()).isZero();
    assertThat(mixed.out()).contains("screen     320x200");
    Run between = run("aci", "--token-file", tokenFile.toString(), "exec", "--url", url, "--json", "--", "echo", "x");
    assertThat(between.exit()).as(between.err()).isZero();
    assertThat(WireCodec.parse(between.out()).path("value").path("stdout").asText()).isEqualTo("x\n");
    // Without the token file, wherever it would have stood, the runtime refuses the hello.
    Run noToken = run("aci", "info", "--url", url);
    assertThat(noToken.exit()).isEqualTo(2);
    assertThat(noToken.err()).contains("--token-file");
    // After "--", the words belong to the guest's command, not to the CLI.
    Run passed = run("aci", "exec", "--url", url, "--token-file", tokenFile.toString(), "--", "echo", "--json");
    assertThat(passed.out()).isEqualTo("--json\n");
  }

  @Test
  void screenshotWritesARealImage() throws Exception {
    Path png = dir.resolve("shot.png");
    Run r = aci("screenshot", "-o", png.toString(), "--scope", "screen", "--max-long-edge", "640");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("wrote " + png + " (32x20 png, ");
    BufferedImage img = ImageIO.read(png.toFile());
    assertThat(img.getWidth()).isEqualTo(32);
    Action sent = runtime.actions().get(0);
    assertThat(sent.verb()).isEqualTo(Verb.SCREENSHOT);
    assertThat(sent.maxLongEdge()).isEqualTo(640);
    assertThat(aci("screenshot", "-o", png.toString(), "--format", "webp").exit()).isEqualTo(2);
    assertThat(aci("screenshot", "-o", png.toString(), "--scope", "region").exit()).isEqualTo(2);
  }

  @Test
  void pointerAndKeyboardCommandsSendTheirActions() {
    assertThat(aci("click", "10", "20").out()).isEqualTo("clicked 10,20\n");
    assertThat(aci("click", "--button", "right", "1", "2").exit()).isZero();
    assertThat(aci("click", "--button", "middle", "3", "4").exit()).isZero();
    assertThat(aci("move", "5.5", "6").out()).isEqualTo("moved to 5.5,6\n");
    assertThat(aci("drag", "1", "2", "30", "40", "--duration-ms", "200").exit()).isZero();
    assertThat(aci("scroll", "0", "300").exit()).isZero();
    assertThat(aci("type", "héllo").out()).isEqualTo("typed 5 characters\n");
    assertThat(aci("key", "ctrl+s").out()).isEqualTo("pressed ctrl+s\n");
    Target p = new Target.PointPx(3, 4);
    assertThat(runtime.actions()).containsExactly(
        Action.click(new Target.PointPx(10, 20)),
        Action.rightClick(new Target.PointPx(1, 2)),
        Action.builder(Verb.MOUSE_DOWN).target(p).button(PointerButton.MIDDLE).build(),
        Action.builder(Verb.MOUSE_UP).target(p).button(PointerButton.MIDDLE).build(),
        Action.move(new Target.PointPx(5.5, 6)),
        Action.builder(Verb.DRAG).target(new Target.PointPx(1, 2)).to(new Target.PointPx(30, 40)).durationMs(200L)
            .build(),
        Action.scroll(new Target.PointPx(160, 100), 0, 300),
        Action.typeText("héllo"),
        Action.key("ctrl+s"));
    assertThat(aci("click", "--button", "wheel", "1", "2").exit()).isEqualTo(2);
  }

  @Test
  void execPassesTheChildsExitStatusThrough() {
    Run r = aci("exec", "--", "sh", "-c", "echo hi; echo oops >&2; exit 3");
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.out()).isEqualTo("hi\n");
    assertThat(r.err()).isEqualTo("oops\n");
    Run shell = aci("exec", "--shell", "--stream", "--", "printf", "'é'", ";", "printf", "b", ">&2", ";", "exit", "5");
    assertThat(shell.exit()).isEqualTo(5);
    assertThat(shell.out()).isEqualTo("é");
    assertThat(shell.err()).isEqualTo("b");
    assertThat(runtime.actions().get(1).shell()).isEqualTo("printf 'é' ; printf b >&2 ; exit 5");
    assertThat(aci("exec", "--", "true").exit()).isZero();
  }

  @Test
  void execJsonPrintsTheResultOrTheStreamEvents() {
    Run buffered = aci("--json", "exec", "--", "echo", "x");
    assertThat(buffered.exit()).isZero();
    assertThat(WireCodec.parse(buffered.out()).path("value").path("stdout").asText()).isEqualTo("x\n");
    Run streamed = aci("--json", "exec", "--stream", "--", "sh", "-c", "echo y; exit 2");
    assertThat(streamed.exit()).isEqualTo(2);
    List<String> lines = streamed.out().lines().toList();
    assertThat(lines.get(0)).contains("\"type\":\"exec_output\"", "\"data_b64\":\"eQo=\"");
    assertThat(lines.get(lines.size() - 1)).contains("\"type\":\"exec_exit\"", "\"exit_code\":2");
  }

  @Test
  void observeWindowsActivateLaunchAndClipboard() {
    assertThat(aci("observe").out()).contains("e1 push_button \"OK\"");
    assertThat(aci("observe", "--diff").exit()).isZero();
    assertThat(runtime.actions().get(1).diff()).isTrue();
    Run windows = aci("windows");
    assertThat(windows.out().lines()).containsExactly(
        "* 0x01c00007      0,0       200x100   Terminal",
        "  0x0000004d    210,0       100x100   xclock");
    assertThat(aci("activate", "0x4d").out()).isEqualTo("activated 0x4d\n");
    assertThat(aci("activate", "Term").exit()).isZero();
    assertThat(aci("launch", "xclock", "-digital").out()).isEqualTo("launched xclock\n");
    assertThat(aci("clipboard", "set", "copied text").exit()).isZero();
    assertThat(aci("clipboard", "get").out()).isEqualTo("copied text\n");
    assertThat(runtime.actions()).contains(Action.activateWindow(77), Action.activateWindowByTitle("Term"),
        Action.launchApp("xclock", List.of("-digital")), Action.clipboardSet("copied text"));
  }

  @Test
  void theRuntimesRefusalIsAOneLineFailure() {
    Run r = aci("launch", "nope");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("agentdesk aci launch: launch_app: failed to spawn \"nope\"");
  }

  @Test
  void aWrongTokenOrNoRuntimeIsAUserError() throws Exception {
    Files.writeString(tokenFile, "wrong");
    Run bad = aci("info");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("authentication required: missing or invalid token", "--token-file");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Run none = run("aci", "--url", "ws://127.0.0.1:" + port, "info");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("is the runtime running?");
    assertThat(run("aci", "--url", "http://x", "info").exit()).isEqualTo(2);
  }
}
