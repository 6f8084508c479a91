package dev.agentdesk.app.aci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.testkit.TestRuntime;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.cli.AgentdeskCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code agentdesk aci record} and {@code replay}: the CLI's plumbing against the in-process runtime
 * (the recording and replay themselves on a real desktop are the aci-recording module's tests).
 */
class AciRecordCliTest {
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

  @Test
  void recordThroughTheProxyThenReplay() throws Exception {
    Path rec = dir.resolve("rec");
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    CompletableFuture<Integer> recording = CompletableFuture.supplyAsync(() -> cl.execute("aci", "record",
        "--url", runtime.uri().toString(), "--out", rec.toString(), "--listen", "127.0.0.1:0"));
    Pattern listening = Pattern.compile("clients connect to (ws://127\\.0\\.0\\.1:\\d+/)");
    Matcher m = listening.matcher("");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!m.reset(out.toString()).find() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(m.find(0)).as(out.toString()).isTrue();
    String proxy = m.group(1);
    assertThat(CliRun.run("aci", "click", "10", "20", "--url", proxy, "--token-file", tokenFile.toString()).exit())
        .isZero();
    assertThat(CliRun.run("aci", "screenshot", "-o", dir.resolve("s.png").toString(), "--url", proxy, "--token-file",
        tokenFile.toString()).exit()).isZero();
    AciRecordCommands.Record cmd = cl.getSubcommands().get("aci").getSubcommands().get("record").getCommand();
    cmd.stop();
    assertThat(recording.get(15, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString()).contains("recorded ", " bytes into " + rec);
    assertThat(Files.readString(rec.resolve("segment-000001.jsonl"))).contains("\"verb\":\"click\"")
        .doesNotContain(TestRuntime.TOKEN);

    CliRun replay = CliRun.run("aci", "replay", rec.toString(), "--fast", "--url", runtime.uri().toString(),
        "--token-file", tokenFile.toString());
    assertThat(replay.exit()).as(replay.err()).isZero();
    assertThat(replay.out()).isEqualTo("matched: 2 messages sent, 2 replies compared (1 observations)\n");
    assertThat(replay.err()).contains("connection 1: 1 messages to send", "connection 2: 1 messages to send");
    CliRun json = CliRun.run("aci", "--json", "replay", rec.toString(), "--fast", "--url", runtime.uri().toString(),
        "--token-file", tokenFile.toString());
    assertThat(json.out()).startsWith("{\"matched\":true,\"played_to_the_end\":true,\"sent\":2,");
  }

  @Test
  void badInputIsAUserError() throws Exception {
    assertThat(CliRun.run("aci", "replay", dir.resolve("none").toString()).err()).contains("no recording folder");
    assertThat(CliRun.run("aci", "replay", dir.toString(), "--threshold", "150").err())
        .contains("--threshold must be 0 to 100");
    assertThat(CliRun.run("aci", "replay", dir.toString(), "--mask", "1,2,3").err())
        .contains("--mask: a region is x,y,w,h (four integers), got '1,2,3'");
    assertThat(CliRun.run("aci", "replay", dir.toString(), "--mask", "1,2,0,4").err())
        .contains("--mask: a region needs a width and height above 0, got 0x4");
    CliRun both = CliRun.run("aci", "replay", dir.toString(), "--strict", "--threshold", "2");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("--strict compares exact frames; leave out --threshold and --mask");
    Files.createDirectories(dir.resolve("used"));
    Files.writeString(dir.resolve("used").resolve("segment-000001.jsonl"), "");
    CliRun again = CliRun.run("aci", "record", "--url", runtime.uri().toString(), "--out",
        dir.resolve("used").toString());
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.err()).contains("already holds a recording");
  }
}
