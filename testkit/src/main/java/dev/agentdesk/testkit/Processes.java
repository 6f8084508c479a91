package dev.agentdesk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The machine's live processes as a test that stops an agent needs to see them (Linux's /proc). */
public final class Processes {
  private Processes() {}

  /**
   * The live processes whose working folder is {@code folder} or below it ({@code /proc/PID/cwd}),
   * each as "PID COMMAND LINE", so that a failure names what was left: an agent's launcher and the
   * process it relaunched (Gemini CLI), its shell tools.
   */
  public static List<String> workingIn(Path folder) {
    Path real;
    try {
      real = folder.toRealPath();
    } catch (IOException gone) {
      real = folder.toAbsolutePath(); // a removed folder: a process may still have its old path
    }
    Path in = real;
    return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive).filter(p -> {
      try {
        return Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd")).startsWith(in);
      } catch (IOException | RuntimeException e) {
        return false; // gone, or not ours to read
      }
    }).map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
  }
}
