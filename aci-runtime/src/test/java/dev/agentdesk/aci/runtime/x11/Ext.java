package dev.agentdesk.aci.runtime.x11;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs X command-line tools against a display and returns their stdout: the outside view. */
public final class Ext {
  private Ext() {}

  public static String run(String display, String... cmd) throws IOException, InterruptedException {
    return feed(display, null, cmd);
  }

  public static String feed(String display, String stdin, String... cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of(cmd));
    pb.environment().put("DISPLAY", display);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", cmd) + " hung");
    }
    return out;
  }

  /** Runs a tool that forks a background server (xclip -i): its output is discarded, only the exit awaited. */
  public static void feedDetached(String display, String stdin, String... cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of(cmd));
    pb.environment().put("DISPLAY", display);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", cmd) + " hung");
    }
  }

  public static Process start(String display, String... cmd) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(List.of(cmd)));
    Map<String, String> env = pb.environment();
    env.put("DISPLAY", display);
    env.put("NO_AT_BRIDGE", "1");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  /** [x, y] from {@code xdotool getmouselocation --shell}. */
  public static int[] mouse(String display) throws IOException, InterruptedException {
    int[] xy = new int[2];
    for (String line : run(display, "xdotool", "getmouselocation", "--shell").split("\n")) {
      if (line.startsWith("X=")) {
        xy[0] = Integer.parseInt(line.substring(2).trim());
      } else if (line.startsWith("Y=")) {
        xy[1] = Integer.parseInt(line.substring(2).trim());
      }
    }
    return xy;
  }
}
