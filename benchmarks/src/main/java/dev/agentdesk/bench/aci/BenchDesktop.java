package dev.agentdesk.bench.aci;

import dev.agentdesk.testkit.XvfbServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A realistic, static desktop to measure against: a private Xvfb with a GTK text viewer full of
 * source code and a long GTK list — busy pixels (text, borders, gradients) that never animate, so
 * repeated captures are identical and not_modified can match.
 */
public final class BenchDesktop implements AutoCloseable {
  final XvfbServer xvfb;
  private final List<Process> apps = new ArrayList<>();
  /** JMH ends a fork whose setup failed without calling tear-down: the apps must not outlive it. */
  private final Thread reaper = new Thread(() -> apps.forEach(Process::destroyForcibly), "bench-desktop-reaper");

  public BenchDesktop(int width, int height) throws IOException, InterruptedException {
    xvfb = XvfbServer.start(width, height);
    Runtime.getRuntime().addShutdownHook(reaper);
    Path text = Files.createTempFile("bench-text", ".txt");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      sb.append(String.format("%4d  public static int sample%d(int x) { return x * %d + %d; } // line of code%n",
          i, i, i % 17, i % 5));
    }
    Files.writeString(text, sb);
    apps.add(start("zenity", "--text-info", "--title=bench text", "--filename=" + text, "--width="
        + (width * 2 / 3), "--height=" + (height * 4 / 5)));
    List<String> list = new ArrayList<>(List.of("zenity", "--list", "--title=bench list", "--column=Name",
        "--column=Size", "--width=" + (width / 3), "--height=" + (height / 2)));
    for (int i = 0; i < 60; i++) {
      list.add("file-" + i + ".txt");
      list.add(Integer.toString(i * 1337));
    }
    apps.add(start(list.toArray(String[]::new)));
    Thread.sleep(2500); // let GTK map and paint both windows
  }

  /** Which GTK apps still run, for a failure message ("zenity --list: exited 0"). */
  String appsState() {
    StringBuilder sb = new StringBuilder();
    for (Process p : apps) {
      sb.append(sb.length() == 0 ? "" : ", ").append(p.info().command().orElse("app")).append(' ')
          .append(p.isAlive() ? "running" : "exited " + p.exitValue());
    }
    return sb.toString();
  }

  public String display() {
    return xvfb.display().name();
  }

  private Process start(String... cmd) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("DISPLAY", xvfb.display().name());
    pb.environment().put("NO_AT_BRIDGE", "1");
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running already
    }
    apps.forEach(Process::destroyForcibly);
    xvfb.close();
  }
}
