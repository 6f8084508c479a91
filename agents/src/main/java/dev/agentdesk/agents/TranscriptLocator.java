package dev.agentdesk.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds the transcript an agent session writes. Homes come from the environment given (its
 * {@code HOME}, {@code CLAUDE_CONFIG_DIR}, {@code CODEX_HOME}, {@code XDG_DATA_HOME}), never from
 * the JVM's own, so tests run against temporary homes.
 */
final class TranscriptLocator {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Clock slack between our spawn time and the agent's own timestamps (same machine, ms rounding). */
  static final long SLACK_MS = 2000;
  /** The first line of a Codex rollout carries the base instructions: it can be tens of KiB. */
  private static final int MAX_HEAD_LINE = 1 << 20;

  private final Path home;
  private final Map<String, String> env;

  TranscriptLocator(Map<String, String> env) {
    this.env = Map.copyOf(env);
    this.home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
  }

  Path claudeProjects() {
    String dir = env.get("CLAUDE_CONFIG_DIR");
    return (dir != null && !dir.isBlank() ? Path.of(dir) : home.resolve(".claude")).resolve("projects");
  }

  Path codexSessions() {
    String dir = env.get("CODEX_HOME");
    return (dir != null && !dir.isBlank() ? Path.of(dir) : home.resolve(".codex")).resolve("sessions");
  }

  /**
   * The transcript, if it exists yet.
   *
   * @param launchId the id agentdesk gave the agent (Claude's session id)
   * @param claimed provider session ids already linked to other agent sessions (never linked twice)
   */
  Optional<TranscriptLink> find(AgentType type, String launchId, Path worktree, Instant spawnedAt,
      Set<String> claimed) {
    return switch (AgentRules.transcriptRule(type)) {
      case CLAUDE_BY_ID -> claude(launchId);
      case CODEX_BY_CWD -> codex(worktree, spawnedAt, claimed);
      case IN_WORKTREE -> inWorktree(type, worktree.resolve(".aider.chat.history.md"), spawnedAt);
      case NEWEST_MENTIONING_CWD -> newestMentioning(type, AgentRules.transcriptFolder(type, home, env), worktree,
          spawnedAt, claimed);
      case NONE -> Optional.empty();
    };
  }

  /** {@code <id>.jsonl} directly inside any project folder; the folder name is Claude's business. */
  Optional<TranscriptLink> claude(String id) {
    if (id == null) {
      return Optional.empty();
    }
    Path projects = claudeProjects();
    if (!Files.isDirectory(projects)) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.list(projects)) {
      return dirs.map(d -> d.resolve(id + ".jsonl")).filter(Files::isRegularFile).findFirst()
          .map(p -> new TranscriptLink("claude", id, p));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The earliest rollout started after the spawn whose session_meta cwd is the worktree. Only the
   * day folders from the spawn's day (in local time and UTC, minus one for the slack) to today are
   * read, and only files modified after the spawn.
   */
  Optional<TranscriptLink> codex(Path worktree, Instant spawnedAt, Set<String> claimed) {
    Path root = codexSessions();
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    String cwd = Worktrees.real(worktree).toString();
    Instant notBefore = spawnedAt.minusMillis(SLACK_MS);
    TranscriptLink best = null;
    Instant bestStart = null;
    for (Path day : dayFolders(root, spawnedAt)) {
      List<Path> files = new ArrayList<>();
      try (Stream<Path> s = Files.list(day)) {
        s.filter(p -> p.getFileName().toString().startsWith("rollout-") && p.toString().endsWith(".jsonl"))
            .forEach(files::add);
      } catch (IOException e) {
        continue;
      }
      for (Path f : files) {
        try {
          if (Files.getLastModifiedTime(f).toInstant().isBefore(notBefore)) {
            continue;
          }
        } catch (IOException e) {
          continue;
        }
        JsonNode meta = firstLine(f);
        if (meta == null || !"session_meta".equals(meta.path("type").asText())) {
          continue;
        }
        JsonNode p = meta.path("payload");
        String id = p.path("id").asText(null);
        Instant start = instant(p.path("timestamp").asText(meta.path("timestamp").asText(null)));
        String metaCwd = p.path("cwd").asText(null);
        if (id == null || start == null || metaCwd == null || claimed.contains(id) || start.isBefore(notBefore)) {
          continue;
        }
        if (!Worktrees.real(Path.of(metaCwd)).toString().equals(cwd)) {
          continue;
        }
        if (bestStart == null || start.isBefore(bestStart)) {
          best = new TranscriptLink("codex", id, f);
          bestStart = start;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  private static List<Path> dayFolders(Path root, Instant spawnedAt) {
    LocalDate from = LocalDate.ofInstant(spawnedAt, ZoneId.systemDefault());
    LocalDate utc = LocalDate.ofInstant(spawnedAt, ZoneId.of("UTC"));
    if (utc.isBefore(from)) {
      from = utc;
    }
    from = from.minusDays(1);
    LocalDate to = LocalDate.now().plusDays(1);
    List<Path> out = new ArrayList<>();
    for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
      Path p = root.resolve(String.format("%04d/%02d/%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth()));
      if (Files.isDirectory(p)) {
        out.add(p);
      }
    }
    return out;
  }

  private Optional<TranscriptLink> inWorktree(AgentType type, Path file, Instant spawnedAt) {
    try {
      if (Files.isRegularFile(file)
          && !Files.getLastModifiedTime(file).toInstant().isBefore(spawnedAt.minusMillis(SLACK_MS))) {
        return Optional.of(new TranscriptLink(type.cliName(), stem(file), file));
      }
    } catch (IOException e) {
      // vanished between the two checks
    }
    return Optional.empty();
  }

  /**
   * The newest file under {@code folder} modified after the spawn whose first 64 KiB mention the
   * worktree path (these agents record their project folder in their session files).
   */
  private Optional<TranscriptLink> newestMentioning(AgentType type, Path folder, Path worktree, Instant spawnedAt,
      Set<String> claimed) {
    if (folder == null || !Files.isDirectory(folder)) {
      return Optional.empty();
    }
    String cwd = Worktrees.real(worktree).toString();
    Instant notBefore = spawnedAt.minusMillis(SLACK_MS);
    Path best = null;
    Instant bestTime = null;
    try (Stream<Path> s = Files.walk(folder, 6)) {
      for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        Instant m = Files.getLastModifiedTime(f).toInstant();
        if (m.isBefore(notBefore) || claimed.contains(stem(f)) || (bestTime != null && !m.isAfter(bestTime))) {
          continue;
        }
        if (head(f, 64 * 1024).contains(cwd)) {
          best = f;
          bestTime = m;
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return Optional.empty();
    }
    return best == null ? Optional.empty() : Optional.of(new TranscriptLink(type.cliName(), stem(best), best));
  }

  static String stem(Path f) {
    String n = f.getFileName().toString();
    int dot = n.indexOf('.', 1);
    return dot < 0 ? n : n.substring(0, dot);
  }

  private static String head(Path f, int max) throws IOException {
    try (InputStream in = Files.newInputStream(f)) {
      return new String(in.readNBytes(max), StandardCharsets.UTF_8);
    }
  }

  private static JsonNode firstLine(Path f) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(f), StandardCharsets.UTF_8))) {
      StringBuilder b = new StringBuilder();
      int c;
      while ((c = r.read()) >= 0 && c != '\n') {
        if (b.length() >= MAX_HEAD_LINE) {
          return null;
        }
        b.append((char) c);
      }
      if (c != '\n') {
        return null; // still being written
      }
      return JSON.readTree(b.toString());
    } catch (IOException e) {
      return null;
    }
  }

  static Instant instant(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
