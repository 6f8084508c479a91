package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which rollout a just-launched Codex writes: Codex names its files by time and its own id, so the
 * one for a launch is the earliest {@code rollout-*.jsonl} started after the launch whose
 * {@code session_meta} cwd is the launch folder, never one already claimed. Only the day folders
 * from the launch's day to tomorrow are read, and only files modified after the launch.
 */
final class CodexLocate {
  private CodexLocate() {}

  static Optional<LiveTranscripts.Located> earliestInCwd(LiveTranscripts.Launch launch, List<Path> roots) {
    Instant notBefore = launch.spawnedAt().minusMillis(LiveTranscripts.CLOCK_SLACK_MS);
    LiveTranscripts.Located best = null;
    Instant bestStart = null;
    for (Path root : roots) {
      for (Path day : LiveLocate.dayFolders(root, launch.spawnedAt())) {
        List<Path> files;
        try (Stream<Path> s = Files.list(day)) {
          files = s.filter(p -> p.getFileName().toString().startsWith("rollout-") && p.toString().endsWith(".jsonl"))
              .toList();
        } catch (IOException | UncheckedIOException e) {
          continue;
        }
        for (Path f : files) {
          if (LiveLocate.modifiedBefore(f, notBefore)) {
            continue;
          }
          JsonNode meta = LiveLocate.firstLine(f);
          if (meta == null || !"session_meta".equals(meta.path("type").asText())) {
            continue;
          }
          JsonNode p = meta.path("payload");
          String id = p.path("id").asText(null);
          Instant start = LiveLocate.instant(p.path("timestamp").asText(meta.path("timestamp").asText(null)));
          String cwd = p.path("cwd").asText(null);
          if (id == null || start == null || cwd == null || launch.claimed().contains(id) || start.isBefore(notBefore)
              || !LiveLocate.real(Path.of(cwd)).equals(launch.cwd())) {
            continue;
          }
          if (bestStart == null || start.isBefore(bestStart)) {
            best = new LiveTranscripts.Located(Provider.CODEX, id, f);
            bestStart = start;
          }
        }
      }
    }
    return Optional.ofNullable(best);
  }
}
