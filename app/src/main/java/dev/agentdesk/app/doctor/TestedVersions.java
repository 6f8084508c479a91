package dev.agentdesk.app.doctor;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agent CLI versions agentdesk was tested with: the pinned list of the real-agents suite
 * ({@code agents/real-agents.versions}: one {@code <agent> <npm package> <version>} per line, {@code #}
 * comments). Looked for, in order, at the system property {@code agentdesk.tested.versions}, beside
 * the application jar ({@code lib/real-agents.versions} of a release, which scripts/dist copies
 * there), and at {@code agents/real-agents.versions} of the clone the jar was built in. Another
 * source is another {@link #from(Path)} call; none found is {@link #none()} and every agent's answer
 * is "unknown".
 */
record TestedVersions(Optional<Path> source, Map<String, List<String>> versions) {
  static final String FILE_NAME = "real-agents.versions";

  static TestedVersions none() {
    return new TestedVersions(Optional.empty(), Map.of());
  }

  /** The versions listed for {@code agent}; empty when the agent is not in the list. */
  List<String> of(String agent) {
    return versions.getOrDefault(agent, List.of());
  }

  static TestedVersions find() {
    for (Path candidate : candidates()) {
      if (Files.isRegularFile(candidate)) {
        return from(candidate);
      }
    }
    return none();
  }

  static List<Path> candidates() {
    List<Path> out = new ArrayList<>();
    String prop = System.getProperty("agentdesk.tested.versions");
    if (prop != null && !prop.isBlank()) {
      out.add(Path.of(prop));
    }
    jarFolder().ifPresent(dir -> {
      out.add(dir.resolve(FILE_NAME));
      out.add(dir.resolve("../../agents").resolve(FILE_NAME).normalize()); // app/target/agentdesk.jar in a clone
    });
    return out;
  }

  static TestedVersions from(Path file) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(file)) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        String[] f = l.split("\\s+");
        if (f.length >= 3) {
          map.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[2]);
        }
      }
    } catch (IOException e) {
      return none();
    }
    return new TestedVersions(Optional.of(file.toAbsolutePath()), map);
  }

  private static Optional<Path> jarFolder() {
    try {
      var src = TestedVersions.class.getProtectionDomain().getCodeSource();
      if (src == null) {
        return Optional.empty();
      }
      Path p = Path.of(src.getLocation().toURI());
      return Optional.ofNullable(Files.isDirectory(p) ? p : p.getParent());
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      return Optional.empty();
    }
  }
}
