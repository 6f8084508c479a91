package dev.agentdesk.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 640, height = 480)
class XvfbExtensionTest {
  @Test
  void serverAnswersWithTheConfiguredScreenSize(XDisplay display) throws Exception {
    Process p = new ProcessBuilder("xdpyinfo", "-display", display.name()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out).contains("dimensions:    640x480 pixels");
    assertThat(display.width()).isEqualTo(640);
  }

  @Test
  void closingStopsTheServer() throws Exception {
    XvfbServer server = XvfbServer.start(320, 200);
    assertThat(server.isAlive()).isTrue();
    server.close();
    assertThat(server.isAlive()).isFalse();
  }

  @Test
  void aJvmThatExitsWithoutClosingItsServerStopsIt() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        XvfbOrphanMain.class.getName()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(out).isEqualTo(3);
    long pid = Long.parseLong(out);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("Xvfb %d still running", pid)
        .isFalse();
  }
}
