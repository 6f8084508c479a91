package dev.agentdesk.computeruse;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;

/** A real runtime on a test's Xvfb, and SDK clients that validate every message they send. */
final class RuntimeFixture implements AutoCloseable {
  static final String TOKEN = "computer-use";
  static final ObserveSpec FULL_PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);
  private final AciRuntime runtime;

  RuntimeFixture(String display) {
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(), display,
        SessionLimits.defaults(), "test"));
  }

  AciClient connect() {
    return AciClient.connect(uri(), AciClientOptions.defaults().withToken(TOKEN)
        .withCallTimeout(Duration.ofSeconds(15)).withValidateOutgoing(true));
  }

  URI uri() {
    return URI.create("ws://127.0.0.1:" + runtime.port() + "/");
  }

  static BufferedImage decode(String base64) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
  }

  static BufferedImage decode(byte[] png) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(png));
  }

  @Override
  public void close() {
    runtime.close();
  }
}
