package dev.agentdesk.app.serve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code agentdesk serve} as a real child process of the test, with a fresh home. */
final class ServeChild {
  private static final Pattern URL = Pattern.compile("dashboard on (http://\\S+)");

  private ServeChild() {}

  /** Starts {@code agentdesk serve ARGS} with HOME = {@code home}; stderr goes to home/stderr.txt. */
  static Process start(Path home, String... args) throws IOException {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
        "dev.agentdesk.app.Main", "serve"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HOME", home.toString());
    pb.environment().remove("XDG_DATA_HOME");
    pb.redirectError(home.resolve("stderr.txt").toFile());
    return pb.start();
  }

  static String stderr(Path home) throws IOException {
    return Files.readString(home.resolve("stderr.txt"), StandardCharsets.UTF_8);
  }

  /**
   * What the server printed up to and including its "stop with" line; {@code url} is the printed
   * dashboard link (with {@code ?token=} unless the server runs with {@code --no-token}), or null.
   */
  record Banner(String text, String url) {
    /** The dashboard's address without the token, ending in {@code /}. */
    String base() {
      return url == null ? null : url.replaceFirst("\\?token=.*$", "");
    }

    /** The token in the printed link, or null. */
    String token() {
      int at = url == null ? -1 : url.indexOf("?token=");
      return at < 0 ? null : url.substring(at + "?token=".length());
    }

    /** A client of the server as the CLI would make one: the token read from the server's token file. */
    ServerClient client(Path tokenFile) {
      return ServerClient.withTokenFile(java.net.URI.create(base()), tokenFile);
    }

    /** The rest of the first line that contains {@code label}, trimmed, or null. */
    String after(String label) {
      for (String line : text.split("\n")) {
        int at = line.indexOf(label);
        if (at >= 0) {
          return line.substring(at + label.length()).trim();
        }
      }
      return null;
    }
  }

  /** Reads stdout until the "stop with" line (or its end). */
  static Banner banner(Process p) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String url = null;
    StringBuilder printed = new StringBuilder();
    for (String line; (line = out.readLine()) != null; ) {
      printed.append(line).append('\n');
      Matcher m = URL.matcher(line);
      if (m.find()) {
        url = m.group(1);
      }
      if (line.contains("stop with")) {
        break;
      }
    }
    return new Banner(printed.toString(), url);
  }
}
