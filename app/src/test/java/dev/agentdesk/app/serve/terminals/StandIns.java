package dev.agentdesk.app.serve.terminals;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The scripted stand-in agents under src/test/resources/stand-ins. */
public final class StandIns {
  private StandIns() {}

  /** The script's path on disk (run it with bash: resource copies lose the executable bit). */
  public static String path(String name) {
    try {
      return Path.of(StandIns.class.getResource("/stand-ins/" + name).toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A JSON array string for {@code bash <script>}. */
  public static String argv(String name) {
    return "[\"bash\", \"" + path(name) + "\"]";
  }
}
