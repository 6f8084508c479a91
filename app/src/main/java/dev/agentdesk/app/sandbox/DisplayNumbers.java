package dev.agentdesk.app.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The X display number a sandbox uses inside. It is fixed before bubblewrap starts so that every
 * process inside (exec's children too) gets {@code DISPLAY} from the environment; with
 * {@code --network} the sandbox shares the host's abstract socket names, so the number must be one
 * no host display listens on.
 */
final class DisplayNumbers {
  private static final Pattern X = Pattern.compile("/tmp/\\.X11-unix/X(\\d+)");
  static final int FIRST = 10;

  private DisplayNumbers() {}

  static int free() {
    Set<Integer> used = new HashSet<>();
    try {
      Matcher m = X.matcher(Files.readString(Path.of("/proc/net/unix")));
      while (m.find()) {
        used.add(Integer.parseInt(m.group(1)));
      }
    } catch (IOException | NumberFormatException e) {
      // no /proc/net/unix: the socket files below still count
    }
    for (int n = FIRST; ; n++) {
      if (!used.contains(n) && !Files.exists(Path.of("/tmp/.X11-unix/X" + n))
          && !Files.exists(Path.of("/tmp/.X" + n + "-lock"))) {
        return n;
      }
    }
  }
}
