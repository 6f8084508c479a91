package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.WorkflowAgentRecord;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Claude Code workflow run files: {@code <session>/workflows/<runId>.json}, written when a run
 * completes, next to the session's transcript. What is read from one (as public reports of the
 * format describe it): {@code runId} and the {@code workflowProgress} entries of type
 * {@code workflow_agent}, each with {@code agentId}, {@code label} and {@code phaseTitle}. Each such
 * entry becomes a {@link WorkflowAgentRecord} of the run (description = label, type = phase title);
 * the run itself, with its parent tool call, comes from the {@code Workflow} tool result in the
 * transcript. Per-agent status, duration and tokens are not described anywhere we could check, so
 * they stay null rather than guessed. The files are small and rewritten whole, so they are read on
 * every pass over the session.
 */
final class ClaudeWorkflowRuns {
  private ClaudeWorkflowRuns() {}

  static List<TranscriptRecord> read(SourceUnit unit, List<LineProblem> problems) {
    if (unit.agentId() != null) {
      return List.of(); // a subagent transcript has no run files of its own
    }
    Path dir = unit.file().resolveSibling(unit.sessionId()).resolve("workflows");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
      ds.forEach(files::add);
    } catch (IOException e) {
      problems.add(new LineProblem(dir.toString(), 0, "cannot list workflow runs: " + e.getMessage()));
      return List.of();
    }
    files.sort(null);
    List<TranscriptRecord> out = new ArrayList<>();
    for (Path f : files) {
      if (!Files.isRegularFile(f)) {
        continue;
      }
      JsonNode run;
      try {
        run = Surrogates.repair(JsonlScan.MAPPER.readTree(f.toFile()));
      } catch (IOException e) {
        problems.add(new LineProblem(f.toString(), 1, "invalid JSON: "
            + String.valueOf(e.getMessage()).lines().findFirst().orElse("unreadable")));
        continue;
      }
      if (run == null || !run.isObject()) {
        problems.add(new LineProblem(f.toString(), 1, "not a JSON object"));
        continue;
      }
      String name = f.getFileName().toString();
      String runId = Json.str(run, "runId");
      if (runId == null) {
        runId = name.substring(0, name.length() - ".json".length());
      }
      JsonNode progress = run.get("workflowProgress");
      if (progress == null || !progress.isArray()) {
        continue;
      }
      for (JsonNode p : progress) {
        String agentId = Json.str(p, "agentId");
        if (agentId != null && "workflow_agent".equals(Json.str(p, "type"))) {
          out.add(new WorkflowAgentRecord(unit.sessionId(), runId, agentId, Json.str(p, "phaseTitle"),
              Json.str(p, "label"), null, null, null));
        }
      }
    }
    return out;
  }
}
