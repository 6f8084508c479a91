package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live side of the seam: each provider's lines as {@link TurnSignal}s (from the corpus files of
 * every format that records a turn) and each provider's transcript found under a temporary
 * {@code $HOME} and under its tool's own variable.
 */
class LiveTranscriptsTest {
  @TempDir Path tmp;

  private static List<TurnSignal> signals(Provider p, List<String> lines) {
    TurnSignals s = LiveTranscripts.signals(p);
    List<TurnSignal> out = new ArrayList<>();
    for (String l : lines) {
      s.read(l, out::add);
    }
    return out;
  }

  private static List<String> corpus(String relative) throws Exception {
    return Files.readAllLines(SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/" + relative));
  }

  @Test
  void copilotEventsOpenAndAnswerCallsAndEndOnTaskCompleteNotOnEachModelTurn() throws Exception {
    List<TurnSignal> s = signals(Provider.COPILOT, corpus("copilot/small.jsonl"));
    assertThat(s).startsWith(new TurnSignal.Prompted(), new TurnSignal.Working(),
        new TurnSignal.ToolCalled("call-1", "shell", null), new TurnSignal.Replied(true),
        new TurnSignal.ToolAnswered("call-1"), new TurnSignal.Replied(true));
    // assistant.turn_end closes one model request only; session.shutdown ends the turn
    assertThat(s).contains(new TurnSignal.TurnEnded(true));
    String subagent = "{\"type\":\"user.message\",\"data\":{\"parentToolCallId\":\"t1\",\"content\":\"x\"}}";
    assertThat(signals(Provider.COPILOT, List.of(subagent))).isEmpty();
    assertThat(signals(Provider.COPILOT, List.of("{\"type\":\"session.task_complete\",\"data\":{}}")))
        .containsExactly(new TurnSignal.TurnEnded(true));
  }

  @Test
  void cursorCallsWithoutIdsAreAnsweredInOrderAndTurnEndedEndsTheTurn() throws Exception {
    List<TurnSignal> s = signals(Provider.CURSOR, corpus("cursor/small.jsonl"));
    assertThat(s.get(0)).isEqualTo(new TurnSignal.Prompted());
    assertThat(s).filteredOn(x -> x instanceof TurnSignal.ToolCalled).singleElement()
        .satisfies(c -> assertThat(((TurnSignal.ToolCalled) c).tool()).isEqualTo("Bash"));
    assertThat(s.get(s.size() - 1)).isEqualTo(new TurnSignal.TurnEnded(true));
    List<TurnSignal> answered = signals(Provider.CURSOR, List.of(
        "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Read\"}]}}",
        "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":\"ok\"}]}}"));
    String id = ((TurnSignal.ToolCalled) answered.get(0)).callId();
    assertThat(answered).containsExactly(new TurnSignal.ToolCalled(id, "Read", null), new TurnSignal.Replied(false),
        new TurnSignal.ToolAnswered(id));
  }

  @Test
  void geminiJsonlCallsAreOpenUntilTheirStatusIsFinalAndApprovalAsks() throws Exception {
    List<TurnSignal> s = signals(Provider.GEMINI, corpus("gemini/jsonl_v040.jsonl"));
    assertThat(s.get(0)).isEqualTo(new TurnSignal.Prompted());
    assertThat(s).contains(new TurnSignal.ToolAnswered("run_shell_command_stage0"));
    assertThat(s).noneMatch(x -> x instanceof TurnSignal.TurnEnded); // Gemini writes no end of turn
    String waiting = "{\"id\":\"m1\",\"type\":\"gemini\",\"content\":\"\",\"toolCalls\":[{\"id\":\"c1\","
        + "\"name\":\"write_file\",\"status\":\"awaiting_approval\"}]}";
    String done = waiting.replace("awaiting_approval", "success");
    assertThat(signals(Provider.GEMINI, List.of(waiting, done))).containsExactly(
        new TurnSignal.ToolCalled("c1", "write_file", "Allow write_file?"), new TurnSignal.Replied(false),
        new TurnSignal.ToolAnswered("c1"), new TurnSignal.Replied(false));
    assertThat(signals(Provider.GEMINI, List.of("{\"id\":\"i\",\"type\":\"info\",\"content\":\"Request cancelled.\"}")))
        .containsExactly(new TurnSignal.TurnEnded(true));
  }

  @Test
  void claudeAndCodexSignals() {
    String ask = "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"q\","
        + "\"name\":\"AskUserQuestion\",\"input\":{\"questions\":[{\"question\":\"Which?\"}]}}],\"stop_reason\":\"tool_use\"}}";
    assertThat(signals(Provider.CLAUDE, List.of(ask)))
        .containsExactly(new TurnSignal.ToolCalled("q", "AskUserQuestion", "Which?"), new TurnSignal.Working());
    assertThat(signals(Provider.CODEX, List.of("{\"type\":\"event_msg\",\"payload\":{\"type\":\"task_started\"}}",
        "{\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\"x\"}}",
        "{\"type\":\"event_msg\",\"payload\":{\"type\":\"task_complete\"}}",
        "{\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\"x\"}}")))
        .containsExactly(new TurnSignal.Working(), new TurnSignal.Working(), new TurnSignal.TurnEnded(true),
            new TurnSignal.Replied(true));
  }

  @Test
  void aLineThatIsNotJsonIsNoEntryAndOpenCodeSignalsNothing() {
    for (Provider p : Provider.values()) {
      assertThat(LiveTranscripts.signals(p).read("not json", x -> { })).as(p.id()).isFalse();
    }
    List<TurnSignal> out = new ArrayList<>();
    assertThat(LiveTranscripts.signals(Provider.OPENCODE).read("{\"id\":\"x\"}", out::add)).isTrue();
    assertThat(out).isEmpty();
  }

  private static Path write(Path f, String text) throws Exception {
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
    return f;
  }

  @Test
  void eachProviderFindsTheLaunchedSessionUnderHomeAndItsOwnVariable() throws Exception {
    Path home = tmp.resolve("home");
    Path cwd = Files.createDirectories(tmp.resolve("work/tree")).toRealPath();
    Instant spawned = Instant.now().minusSeconds(5);
    Map<String, String> env = Map.of("HOME", home.toString());
    LiveTranscripts.Launch launch = new LiveTranscripts.Launch("c0ffee00-0000-4000-8000-000000000001", cwd, spawned,
        Set.of());

    assertThat(LiveTranscripts.locate(Provider.CLAUDE, launch, env)).isEmpty();
    Path claude = write(home.resolve(".claude/projects/-work-tree/" + launch.launchId() + ".jsonl"), "{}\n");
    assertThat(LiveTranscripts.locate(Provider.CLAUDE, launch, env))
        .contains(new LiveTranscripts.Located(Provider.CLAUDE, launch.launchId(), claude));
    Path config = tmp.resolve("claude-config");
    Path relocated = write(config.resolve("projects/p/" + launch.launchId() + ".jsonl"), "{}\n");
    assertThat(LiveTranscripts.locate(Provider.CLAUDE, launch, Map.of("HOME", home.toString(),
        "CLAUDE_CONFIG_DIR", config.toString()))).map(LiveTranscripts.Located::file).contains(relocated);

    java.time.LocalDate today = java.time.LocalDate.now();
    String day = String.format("%04d/%02d/%02d", today.getYear(), today.getMonthValue(), today.getDayOfMonth());
    String meta = "{\"type\":\"session_meta\",\"payload\":{\"id\":\"%s\",\"timestamp\":\"%s\",\"cwd\":\"%s\"}}\n";
    write(home.resolve(".codex/sessions/" + day + "/rollout-b.jsonl"), String.format(meta, "other", Instant.now(), "/elsewhere"));
    Path codex = write(home.resolve(".codex/sessions/" + day + "/rollout-a.jsonl"), String.format(meta, "cx1", Instant.now(), cwd));
    assertThat(LiveTranscripts.locate(Provider.CODEX, launch, env))
        .contains(new LiveTranscripts.Located(Provider.CODEX, "cx1", codex));
    assertThat(LiveTranscripts.locate(Provider.CODEX, new LiveTranscripts.Launch(null, cwd, spawned, Set.of("cx1")), env))
        .isEmpty();

    Path gemini = write(home.resolve(".gemini/tmp/proj/chats/session-g1.jsonl"),
        "{\"sessionId\":\"g1\",\"projectHash\":\"h\",\"kind\":\"main\",\"directories\":[\"" + cwd + "\"]}\n");
    assertThat(LiveTranscripts.locate(Provider.GEMINI, launch, env)).map(LiveTranscripts.Located::file).contains(gemini);

    Path copilotHome = tmp.resolve("copilot-home");
    Path copilot = write(copilotHome.resolve("session-state/cp-1/events.jsonl"),
        "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"cp-1\",\"context\":{\"cwd\":\"" + cwd + "\"}}}\n");
    assertThat(LiveTranscripts.locate(Provider.COPILOT, launch, env)).isEmpty();
    assertThat(LiveTranscripts.locate(Provider.COPILOT, launch, Map.of("HOME", home.toString(),
        "COPILOT_HOME", copilotHome.toString())))
        .contains(new LiveTranscripts.Located(Provider.COPILOT, "cp-1", copilot));

    Path data = tmp.resolve("xdg-data");
    write(data.resolve("opencode/storage/message/ses_1/msg_1.json"), "{\"id\":\"msg_1\",\"path\":\"" + cwd + "\"}");
    Path opencode = write(data.resolve("opencode/storage/session/proj/ses_1.json"),
        "{\"id\":\"ses_1\",\"directory\":\"" + cwd + "\"}");
    assertThat(LiveTranscripts.locate(Provider.OPENCODE, launch, Map.of("HOME", home.toString(),
        "XDG_DATA_HOME", data.toString()))).contains(new LiveTranscripts.Located(Provider.OPENCODE, "ses_1", opencode));

    // a file last written before the launch belongs to an earlier session
    Files.setLastModifiedTime(gemini, FileTime.from(spawned.minusSeconds(60)));
    assertThat(LiveTranscripts.locate(Provider.GEMINI, launch, env)).isEmpty();
  }

  @Test
  void anOpenCodeLaunchIsTheEarliestTopLevelSessionOfItsFolderInTheDatabaseSinceTheSpawn() throws Exception {
    Path cwd = Files.createDirectories(tmp.resolve("work/proj")).toRealPath();
    Path other = Files.createDirectories(tmp.resolve("work/other")).toRealPath();
    Instant spawned = Instant.parse("2026-05-01T10:00:00Z");
    long t = spawned.toEpochMilli();
    Path data = Files.createDirectories(tmp.resolve("xdg-db"));
    Path db = data.resolve("opencode/opencode.db");
    Files.createDirectories(db.getParent());
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL,"
          + " time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL)");
      st.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,"
          + " time_updated INTEGER NOT NULL, data TEXT NOT NULL)");
      st.execute("CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,"
          + " time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)");
      st.execute("INSERT INTO session VALUES ('ses_old', NULL, '" + cwd + "', " + (t - 60_000) + ", " + t + ")");
      st.execute("INSERT INTO session VALUES ('ses_elsewhere', NULL, '" + other + "', " + (t + 100) + ", " + t + ")");
      st.execute("INSERT INTO session VALUES ('ses_mine', NULL, '" + cwd + "', " + (t + 500) + ", " + t + ")");
      st.execute("INSERT INTO session VALUES ('ses_child', 'ses_mine', '" + cwd + "', " + (t + 400) + ", " + t + ")");
      st.execute("INSERT INTO session VALUES ('ses_next', NULL, '" + cwd + "', " + (t + 900) + ", " + t + ")");
    }
    Map<String, String> env = Map.of("HOME", tmp.resolve("home").toString(), "XDG_DATA_HOME", data.toString());
    LiveTranscripts.Launch launch = new LiveTranscripts.Launch(null, cwd, spawned, Set.of());
    assertThat(LiveTranscripts.locate(Provider.OPENCODE, launch, env)).contains(
        new LiveTranscripts.Located(Provider.OPENCODE, "ses_mine", Path.of(db + "#ses_mine")));
    // a session another launch linked is not linked twice; none of another folder or from before
    assertThat(LiveTranscripts.locate(Provider.OPENCODE, new LiveTranscripts.Launch(null, cwd, spawned,
        Set.of("ses_mine")), env)).map(LiveTranscripts.Located::sessionId).contains("ses_next");
    assertThat(LiveTranscripts.locate(Provider.OPENCODE, new LiveTranscripts.Launch(null, cwd, spawned.plusSeconds(60),
        Set.of()), env)).isEmpty();
    // the located session reads back by that name, and its version moves when the database is written
    assertThat(Transcripts.parse(Provider.OPENCODE, Path.of(db + "#ses_mine")).unit().sessionId()).isEqualTo("ses_mine");
    long before = LiveTranscripts.version(Provider.OPENCODE, Path.of(db + "#ses_mine"));
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("PRAGMA wal_autocheckpoint=0");
      st.execute("UPDATE session SET time_updated = " + (t + 5000) + " WHERE id = 'ses_mine'");
      assertThat(LiveTranscripts.version(Provider.OPENCODE, Path.of(db + "#ses_mine"))).isNotEqualTo(before);
    }
  }
}
