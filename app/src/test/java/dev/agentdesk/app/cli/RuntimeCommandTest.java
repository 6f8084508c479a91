package dev.agentdesk.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.recording.Recording;
import dev.agentdesk.aci.wire.ObserveSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code agentdesk runtime} end to end: its own Xvfb, a real client, a clean stop. */
class RuntimeCommandTest {

  @Test
  void runsOnItsOwnXvfbAnswersAClientAndStopsCleanly(@TempDir Path dir) throws Exception {
    Path tokenFile = Files.writeString(dir.resolve("token"), "  cli-token\n");
    RuntimeCommand cmd = new RuntimeCommand();
    CommandLine cl = new CommandLine(cmd);
    cl.setExecutionExceptionHandler(new FriendlyErrors());
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute("--listen", "127.0.0.1:0",
        "--token-file", tokenFile.toString(), "--xvfb", "800x600", "--allow-exec"));
    Matcher m = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && !exit.isDone()) {
      m = Pattern.compile("listening on ws://127\\.0\\.0\\.1:(\\d+)/ \\(display (:\\d+), exec on\\)").matcher(out.toString());
      if (m.find()) {
        break;
      }
      m = null;
      Thread.sleep(20);
    }
    assertThat(m).as("startup line in: %s", out).isNotNull();
    int port = Integer.parseInt(m.group(1));
    String display = m.group(2);
    BlockingQueue<String> inbox = new LinkedBlockingQueue<>();
    WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), new WebSocket.Listener() {
          final StringBuilder sb = new StringBuilder();

          @Override
          public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            sb.append(data);
            if (last) {
              inbox.add(sb.toString());
              sb.setLength(0);
            }
            w.request(1);
            return null;
          }
        }).join();
    ws.sendText("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\"cli-token\"}", true).join();
    assertThat(inbox.poll(10, TimeUnit.SECONDS)).contains("\"type\":\"welcome\"").contains("\"exec\"");
    ws.sendText("{\"type\":\"query\",\"call_id\":\"q\",\"q\":\"screen_size\"}", true).join();
    assertThat(inbox.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"type\":\"result\",\"call_id\":\"q\",\"ok\":true,\"value\":{\"w\":800,\"h\":600}}");
    ws.sendText("{\"type\":\"action\",\"call_id\":\"x\",\"action\":{\"verb\":\"exec\",\"shell\":\"echo $DISPLAY\"}}", true).join();
    assertThat(inbox.poll(10, TimeUnit.SECONDS)).contains("\"stdout\":\"" + display + "\\n\"");
    ws.abort();
    cmd.stop.countDown();
    assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(Path.of("/tmp/.X11-unix/X" + display.substring(1))).as("own Xvfb stopped").doesNotExist();
  }

  @Test
  void recordWritesEveryMessageOfEveryConnection(@TempDir Path dir) throws Exception {
    Path tokenFile = Files.writeString(dir.resolve("token"), "rec-token\n");
    Path rec = dir.resolve("rec");
    RuntimeCommand cmd = new RuntimeCommand();
    CommandLine cl = new CommandLine(cmd);
    cl.setExecutionExceptionHandler(new FriendlyErrors());
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute("--listen", "127.0.0.1:0",
        "--token-file", tokenFile.toString(), "--xvfb", "320x200", "--record", rec.toString()));
    Pattern p = Pattern.compile("listening on ws://127\\.0\\.0\\.1:(\\d+)/ \\(display :\\d+, exec off, recording into "
        + Pattern.quote(rec.toString()) + "\\)");
    Matcher m = p.matcher("");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && !exit.isDone() && !m.reset(out.toString()).find()) {
      Thread.sleep(20);
    }
    assertThat(m.find(0)).as("startup line in: %s", out).isTrue();
    URI uri = URI.create("ws://127.0.0.1:" + m.group(1) + "/");
    try (AciClient c = AciClient.connect(uri, AciClientOptions.defaults().withToken("rec-token"))) {
      assertThat(c.screenSize().w()).isEqualTo(320);
      c.screenshot(ObserveSpec.DEFAULTS);
    }
    cmd.stop.countDown();
    assertThat(exit.get(20, TimeUnit.SECONDS)).isZero();
    Recording r = Recording.open(rec);
    assertThat(r.entries().stream().map(e -> e.isMessage() ? e.direction().wire() + " " + e.type() : e.event()))
        .containsExactly("open", "c2s hello", "s2c welcome", "c2s query", "s2c result", "c2s action", "s2c observation",
            "close");
    assertThat(r.entries().get(1).message().path("token").asText()).isEqualTo("<redacted>");
    Recording.Entry shot = r.entries().get(6);
    assertThat(r.frame(shot.message().path("image").path("ref").asText())).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
  }

  @Test
  void badArgumentsAreUsageErrors(@TempDir Path dir) throws Exception {
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    assertThat(cl.execute("runtime", "--token-file", dir.resolve("missing").toString(), "--display", ":99"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("cannot read --token-file");
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThat(cl.execute("runtime", "--token-file", empty.toString(), "--display", ":99")).isEqualTo(2);
    assertThat(err.toString()).contains("is empty; a TCP listener requires a token");
    Path token = Files.writeString(dir.resolve("t"), "x");
    assertThat(cl.execute("runtime", "--token-file", token.toString(), "--display", ":1", "--xvfb", "10x10"))
        .isEqualTo(2);
    assertThat(cl.execute("runtime", "--token-file", token.toString(), "--listen", "nope", "--display", ":1"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--listen: expected HOST:PORT");
    assertThat(cl.execute("runtime", "--display", ":1")).isEqualTo(2);
    assertThat(err.toString()).contains("--token-file");
  }
}
