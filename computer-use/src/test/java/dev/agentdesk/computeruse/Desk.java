package dev.agentdesk.computeruse;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.wire.Target;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the tool tests drive: a real runtime on the class's Xvfb, an SDK client that validates every
 * message it sends, and a real xterm (raw mode, SGR mouse reports) covering the top-left corner.
 */
final class Desk implements AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(5);
  private static final Pattern REPORT = Pattern.compile("\033\\[<(\\d+);(\\d+);(\\d+)([Mm])");

  final RuntimeFixture runtime;
  final AciClient client;
  final XtermProbe xterm;

  private Desk(RuntimeFixture runtime, AciClient client, XtermProbe xterm) {
    this.runtime = runtime;
    this.client = client;
    this.xterm = xterm;
  }

  static Desk start(String display, Path dir) throws Exception {
    RuntimeFixture runtime = new RuntimeFixture(display);
    AciClient client = runtime.connect();
    return new Desk(runtime, client, XtermProbe.start(display, dir, "100x28+0+0"));
  }

  /** Keyboard focus follows the pointer on a bare X server: park it over the xterm, forget input so far. */
  void pointerIntoTheTerminal() throws Exception {
    client.move(new Target.PointPx(300, 200));
    xterm.await(0, Duration.ofMillis(300));
    xterm.clear();
  }

  /** The SGR mouse reports in {@code received}, as {@code button;col;row} and M (press) or m (release). */
  static List<String> reports(String received) {
    List<String> out = new ArrayList<>();
    Matcher m = REPORT.matcher(received);
    while (m.find()) {
      out.add(m.group(1) + ";" + m.group(2) + ";" + m.group(3) + m.group(4));
    }
    return out;
  }

  /** The mouse reports of the next {@code bytes} bytes of input. */
  List<String> reportsOf(int bytes) throws Exception {
    return reports(xterm.awaitSince(bytes, WAIT));
  }

  static int[] rgb(BufferedImage img) {
    int[] px = img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
    for (int i = 0; i < px.length; i++) {
      px[i] &= 0xffffff;
    }
    return px;
  }

  @Override
  public void close() {
    xterm.close();
    client.close();
    runtime.close();
  }
}
