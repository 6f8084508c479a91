package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TurnSignals;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Claude Code: {@code projects/<slug>/<session>.jsonl} and subagent transcripts under
 * {@code <session>/subagents/}. One line is one user, assistant, system or bookkeeping event; an
 * assistant API response may be spread over several lines that share {@code message.id} and
 * {@code requestId} (and repeat its usage), which the adapter expresses as a shared
 * {@code responseId}.
 */
public final class ClaudeCodeAdapter implements ProviderAdapter {
  static final long DEFAULT_BATCH_BYTES = 8L << 20;
  private final long batchBytes;

  public ClaudeCodeAdapter() {
    this(DEFAULT_BATCH_BYTES);
  }

  /** An adapter that reads at most about {@code batchBytes} per call (a longer line is still read whole). */
  public ClaudeCodeAdapter(long batchBytes) {
    this.batchBytes = batchBytes;
  }

  @Override
  public Provider provider() {
    return Provider.CLAUDE;
  }

  /**
   * {@code $CLAUDE_CONFIG_DIR/projects} when set; otherwise both {@code ~/.config/claude/projects}
   * (where releases since 1.0.30 may write) and {@code ~/.claude/projects} (the long-standing one).
   */
  @Override
  public List<Path> defaultRoots(java.util.Map<String, String> env, Path home) {
    Path dir = Env.dir(env, "CLAUDE_CONFIG_DIR");
    if (dir != null) {
      return List.of(dir.resolve("projects"));
    }
    Path xdg = Env.dir(env, "XDG_CONFIG_HOME");
    return List.of((xdg != null ? xdg : home.resolve(".config")).resolve("claude").resolve("projects"),
        home.resolve(".claude").resolve("projects"));
  }

  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".jsonl") || name.equals("journal.jsonl")) {
      return Optional.empty();
    }
    String stem = name.substring(0, name.length() - ".jsonl".length());
    Path dir = file.toAbsolutePath().getParent();
    if (stem.startsWith("agent-") && dir != null) {
      // <session>/subagents/agent-X.jsonl or <session>/subagents/workflows/<run>/agent-X.jsonl
      Path up = dir;
      while (up != null && up.getFileName() != null && !up.getFileName().toString().equals("subagents")) {
        up = up.getParent();
      }
      String parent = up != null && up.getParent() != null && up.getParent().getFileName() != null
          ? up.getParent().getFileName().toString() : null;
      return Optional.of(new SourceUnit(Provider.CLAUDE, file, stem, parent, stem.substring("agent-".length())));
    }
    return Optional.of(new SourceUnit(Provider.CLAUDE, file, stem, null, null));
  }

  @Override
  public TurnSignals turnSignals() {
    return new ClaudeTurnSignals();
  }

  /** {@code <id>.jsonl} in any project folder, {@code id} being the {@code --session-id} the launcher passed. */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    return LiveLocate.byIdInAnyFolder(Provider.CLAUDE, roots, launch.launchId());
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    SessionLines.Read<ClaudeLineParser> read = SessionLines.read(unit, cursor, batchBytes, ClaudeLineParser::new);
    List<TranscriptRecord> records = read.records(unit);
    subagentMeta(unit, read.problems()).ifPresent(records::add);
    records.addAll(ClaudeWorkflowRuns.read(unit, read.problems()));
    return read.result(records);
  }

  /**
   * A subagent transcript's {@code agent-<id>.meta.json} (agent type, description) as a subagent
   * record of the subagent's own session. Read on every pass: the file is small and rewritten whole.
   */
  private static Optional<TranscriptRecord> subagentMeta(SourceUnit unit, List<LineProblem> problems) {
    if (unit.agentId() == null) {
      return Optional.empty();
    }
    String name = unit.file().getFileName().toString();
    Path meta = unit.file().resolveSibling(name.substring(0, name.length() - ".jsonl".length()) + ".meta.json");
    if (!java.nio.file.Files.isRegularFile(meta)) {
      return Optional.empty();
    }
    try {
      JsonNode m = Surrogates.repair(JsonlScan.MAPPER.readTree(meta.toFile()));
      if (m == null || !m.isObject()) {
        problems.add(new LineProblem(meta.toString(), 1, "not a JSON object"));
        return Optional.empty();
      }
      return Optional.of(new SubagentRecord(unit.sessionId(), unit.agentId(), null,
          firstNonNullText(m, "agentType", "subagent_type"), Json.str(m, "description"),
          Json.lngOrNull(m, "totalDurationMs"), Json.lngOrNull(m, "totalTokens"), unit.sessionId()));
    } catch (java.io.IOException e) {
      problems.add(new LineProblem(meta.toString(), 1, "invalid JSON: " + e.getMessage().lines().findFirst()
          .orElse("unreadable")));
      return Optional.empty();
    }
  }

  private static String firstNonNullText(JsonNode n, String... fields) {
    for (String f : fields) {
      if (Json.str(n, f) != null) {
        return Json.str(n, f);
      }
    }
    return null;
  }
}
