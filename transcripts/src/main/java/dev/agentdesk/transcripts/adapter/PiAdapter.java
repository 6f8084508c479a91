package dev.agentdesk.transcripts.adapter;

import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pi coding agent ({@code @mariozechner/pi-coding-agent}): one JSONL file per session,
 * {@code ~/.pi/agent/sessions/--<cwd with / as ->--/<timestamp>_<uuid>.jsonl}. The first line is a
 * {@code session} header ({@code version} 3 today; 2 added {@code id}/{@code parentId}; files
 * without a version are the linear format 1); every other line is an entry of the session's tree:
 * {@code message} (roles {@code user}, {@code assistant} with text/thinking/toolCall blocks and a
 * {@code usage}, {@code toolResult}, {@code bashExecution}, {@code custom}/{@code hookMessage}),
 * {@code model_change}, {@code thinking_level_change}, {@code compaction}, {@code branch_summary},
 * {@code custom}, {@code custom_message}, {@code label}, {@code session_info}. The lines are read by
 * {@link PiEntries}.
 */
public final class PiAdapter implements ProviderAdapter {
  /** {@code <ISO time with - for : and .>_<session id>.jsonl}, what pi names a session file. */
  private static final Pattern FILE_NAME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T[0-9-]+Z_(.+)\\.jsonl");

  @Override
  public Provider provider() {
    return Provider.PI;
  }

  /**
   * Where pi writes sessions, in its own order of precedence: {@code $PI_CODING_AGENT_SESSION_DIR},
   * the {@code sessionDir} of the global {@code settings.json}, and always the agent folder's
   * {@code sessions/} ({@code $PI_CODING_AGENT_DIR}, else {@code ~/.pi/agent}); {@code ~} is expanded
   * as pi expands it. (A {@code --session-dir} given to one pi run, or a relative {@code sessionDir}
   * of a project's {@code .pi/settings.json}, is not knowable from here: name it with {@code --pi}.)
   */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    Path agentDir = expand(env.get("PI_CODING_AGENT_DIR"), home);
    if (agentDir == null) {
      agentDir = home.resolve(".pi").resolve("agent");
    }
    LinkedHashSet<Path> roots = new LinkedHashSet<>();
    Path sessionDir = expand(env.get("PI_CODING_AGENT_SESSION_DIR"), home);
    if (sessionDir != null) {
      roots.add(sessionDir);
    }
    Path fromSettings = expand(settingsSessionDir(agentDir.resolve("settings.json")), home);
    if (fromSettings != null) {
      roots.add(fromSettings);
    }
    roots.add(agentDir.resolve("sessions"));
    return List.copyOf(roots);
  }

  /** An absolute path, or one starting with {@code ~/} (pi's home expansion); anything else is ignored. */
  private static Path expand(String value, Path home) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.strip();
    if (v.equals("~")) {
      return home;
    }
    if (v.startsWith("~/")) {
      return home.resolve(v.substring(2));
    }
    Path p = Path.of(v);
    return p.isAbsolute() ? p : null;
  }

  private static String settingsSessionDir(Path settings) {
    if (!Files.isRegularFile(settings)) {
      return null;
    }
    try {
      return Json.str(JsonlScan.MAPPER.readTree(settings.toFile()), "sessionDir");
    } catch (IOException | RuntimeException e) {
      return null; // pi itself falls back to its defaults when the file does not parse
    }
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    return !head.isEmpty() && head.get(0).contains("\"type\":\"session\"") && head.get(0).contains("\"cwd\"");
  }

  /** Any {@code .jsonl}; the session id is the uuid of pi's file name, else the file's stem. */
  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".jsonl")) {
      return Optional.empty();
    }
    Matcher m = FILE_NAME.matcher(name);
    String id = m.matches() ? m.group(1) : name.substring(0, name.length() - ".jsonl".length());
    return Optional.of(new SourceUnit(Provider.PI, file, id, null, null));
  }

  /**
   * A live pi session: the newest session file since the launch whose header names the launch
   * folder (pi writes {@code <sessions>/--<folder>--/<time>_<uuid>.jsonl} with the header
   * {@code {"type":"session",…,"cwd":…}} once the first prompt is sent).
   */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    return LiveLocate.newestNamingCwd(Provider.PI, roots, launch, f -> f.getFileName().toString().endsWith(".jsonl"),
        this::unitFor);
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    SessionLines.Read<PiEntries> read = SessionLines.read(unit, cursor, ClaudeCodeAdapter.DEFAULT_BATCH_BYTES, PiEntries::new);
    return read.result(read.records(unit));
  }

  /** pi's built-in tools are read, bash, edit, write, grep, find and ls; extensions add others. */
  static String presentation(String name) {
    if (name == null) {
      return Presentations.GENERIC;
    }
    return switch (name) {
      case "bash" -> Presentations.SHELL;
      case "read" -> Presentations.READ;
      case "edit", "write" -> Presentations.EDIT;
      case "grep", "find", "ls" -> Presentations.SEARCH;
      case "web_search", "web_fetch", "fetch" -> Presentations.WEB;
      case "todo", "todo_write" -> Presentations.TODO_LIST;
      default -> Presentations.GENERIC;
    };
  }
}
