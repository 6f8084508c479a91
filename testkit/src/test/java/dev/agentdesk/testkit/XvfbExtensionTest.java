package dev.agentdesk.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
}
