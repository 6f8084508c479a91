package dev.agentdesk.terminal.vt;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real xterm.js (npm @xterm/headless, pinned by tools/xterm-headless/package-lock.json) as a
 * reference renderer: one long-lived node process, one request per byte stream. Installs the
 * npm packages itself when scripts/setup-system has not run yet.
 */
final class XtermReference implements AutoCloseable {
  /** The reference's view of a screen, normalised for comparison (see {@link #of}). */
  record Screen(List<String> lines, List<Boolean> wrapped, int cursorRow, int cursorCol, boolean altScreen, String title) {
    /** Our engine's screen in the same normal form. */
    static Screen of(ScreenSnapshot s) {
      return new Screen(trim(s.lines()), s.wrapped(), s.cursorRow(), s.cursorCol(), s.altScreen(), s.title());
    }

    /** Text, cursor and screen choice: what the differential tests require to be equal. */
    Screen withoutWrapFlagsAndTitle() {
      return new Screen(lines, List.of(), cursorRow, cursorCol, altScreen, "");
    }

    String render() {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < lines.size(); i++) {
        sb.append(String.format("%2d|%s|%n", i, lines.get(i)));
      }
      return sb.append("cursor ").append(cursorRow).append(',').append(cursorCol).append(altScreen ? " alt" : "").toString();
    }
  }

  private final Process process;
  private final OutputStream in;
  private final BufferedReader out;
  private long requests;

  XtermReference() throws IOException {
    Path root = SharedCorpus.repoRoot().orElseThrow(() -> new IllegalStateException("repository root not found"));
    Path dir = root.resolve("tools/xterm-headless");
    if (!Files.isDirectory(dir.resolve("node_modules/@xterm/headless"))) {
      install(dir);
    }
    process = new ProcessBuilder("node", dir.resolve("render.js").toString(), "serve")
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    in = process.getOutputStream();
    out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  private static void install(Path dir) throws IOException {
    try {
      Process npm = new ProcessBuilder("npm", "ci", "--silent", "--no-audit", "--no-fund")
          .directory(dir.toFile()).inheritIO().start();
      if (!npm.waitFor(300, TimeUnit.SECONDS) || npm.exitValue() != 0) {
        throw new IOException("npm ci in " + dir + " failed; run scripts/setup-system");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while installing @xterm/headless", e);
    }
  }

  /**
   * Renders {@code bytes} on a fresh {@code cols}×{@code rows} xterm.js terminal. Synchronized:
   * jqwik may still be shrinking one property in a background thread while the next one runs.
   */
  synchronized Screen render(int cols, int rows, byte[] bytes) throws IOException {
    long id = ++requests;
    String req = id + " " + cols + " " + rows + " " + Base64.getEncoder().encodeToString(bytes) + "\n";
    in.write(req.getBytes(StandardCharsets.US_ASCII));
    in.flush();
    String[] all;
    do { // a reply to an earlier request that was given up on is skipped
      String reply = out.readLine();
      if (reply == null) {
        throw new IOException("xterm.js reference process ended");
      }
      all = reply.split(" ");
    } while (Long.parseLong(all[0]) != id);
    if (all[1].equals("ERR")) {
      throw new IOException("xterm.js itself threw on this input (its message is on stderr)");
    }
    String[] parts = Arrays.copyOfRange(all, 1, all.length);
    int cursorRow = Integer.parseInt(parts[0]);
    int cursorCol = Math.min(Integer.parseInt(parts[1]), cols - 1); // xterm.js says col == cols while a wrap is pending
    boolean alt = parts[2].equals("1");
    List<Boolean> wrapped = new ArrayList<>();
    for (char c : parts[3].toCharArray()) {
      wrapped.add(c == '1');
    }
    String title = decode(parts[4]);
    List<String> lines = new ArrayList<>();
    for (int i = 5; i < parts.length; i++) {
      lines.add(decode(parts[i]));
    }
    return new Screen(trim(lines), wrapped, cursorRow, cursorCol, alt, title);
  }

  private static String decode(String b64) {
    return b64.equals("-") ? "" : new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
  }

  /** xterm.js keeps spaces that were written explicitly at a row's end; both sides drop them. */
  static List<String> trim(List<String> lines) {
    List<String> out = new ArrayList<>(lines.size());
    for (String l : lines) {
      out.add(l.stripTrailing());
    }
    return out;
  }

  @Override
  public void close() {
    try {
      in.close();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroy();
      }
    } catch (IOException | InterruptedException e) {
      process.destroy();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
