package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The searches the adapters' {@code locate} share: a file named by the id the launcher chose, the
 * earliest file after the launch whose head names the launch's folder, the newest such file.
 * Only files modified after the launch (less the clock slack) are opened.
 */
final class LiveLocate {
  private LiveLocate() {}

  /** How much of a file's start is searched for the launch folder. */
  static final int HEAD_BYTES = 64 * 1024;
  /** A first line longer than this (a Codex rollout's base instructions run to tens of KiB) is not read. */
  private static final int MAX_HEAD_LINE = 1 << 20;

  /** {@code <root>/<any folder>/<id>.jsonl} under the first root that has it. */
  static Optional<LiveTranscripts.Located> byIdInAnyFolder(Provider provider, List<Path> roots, String id) {
    if (id == null || id.isBlank()) {
      return Optional.empty();
    }
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> dirs = Files.list(root)) {
        Optional<Path> f = dirs.map(d -> d.resolve(id + ".jsonl")).filter(Files::isRegularFile).findFirst();
        if (f.isPresent()) {
          return Optional.of(new LiveTranscripts.Located(provider, id, f.get()));
        }
      } catch (IOException | UncheckedIOException e) {
        // unreadable folder: try the next root
      }
    }
    return Optional.empty();
  }

  /**
   * The newest file under {@code roots} (to a depth of 6) modified after the launch, accepted by
   * {@code unitFor}, not claimed, whose first 64 KiB name the launch folder (these agents record
   * their project folder in their session files).
   */
  static Optional<LiveTranscripts.Located> newestNamingCwd(Provider provider, List<Path> roots,
      LiveTranscripts.Launch launch, Predicate<Path> candidate, Function<Path, Optional<SourceUnit>> unitFor) {
    String cwd = launch.cwd().toString();
    Instant notBefore = launch.spawnedAt().minusMillis(LiveTranscripts.CLOCK_SLACK_MS);
    LiveTranscripts.Located best = null;
    Instant bestTime = null;
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(root, 6)) {
        for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile).filter(candidate)::iterator) {
          Instant m = Files.getLastModifiedTime(f).toInstant();
          if (m.isBefore(notBefore) || (bestTime != null && !m.isAfter(bestTime))) {
            continue;
          }
          Optional<SourceUnit> unit = unitFor.apply(f);
          if (unit.isEmpty() || launch.claimed().contains(unit.get().sessionId()) || !head(f).contains(cwd)) {
            continue;
          }
          best = new LiveTranscripts.Located(provider, unit.get().sessionId(), f);
          bestTime = m;
        }
      } catch (IOException | UncheckedIOException e) {
        // a folder that vanished mid-walk: what was found so far stands
      }
    }
    return Optional.ofNullable(best);
  }

  /** The day folders {@code root/YYYY/MM/DD} from the launch's day (local and UTC, minus one) to tomorrow. */
  static List<Path> dayFolders(Path root, Instant spawnedAt) {
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

  static boolean modifiedBefore(Path f, Instant t) {
    try {
      return Files.getLastModifiedTime(f).toInstant().isBefore(t);
    } catch (IOException e) {
      return true; // vanished: not a candidate
    }
  }

  /** {@code p} with symbolic links resolved, else absolute and normalised. */
  static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  static String head(Path f) throws IOException {
    try (InputStream in = Files.newInputStream(f)) {
      return new String(in.readNBytes(HEAD_BYTES), StandardCharsets.UTF_8);
    }
  }

  /** The first line as JSON, or null while it is still being written, too long or not JSON. */
  static JsonNode firstLine(Path f) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(f), StandardCharsets.UTF_8))) {
      StringBuilder b = new StringBuilder();
      int c;
      while ((c = r.read()) >= 0 && c != '\n') {
        if (b.length() >= MAX_HEAD_LINE) {
          return null;
        }
        b.append((char) c);
      }
      return c == '\n' ? LiveLines.object(b.toString()) : null;
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
