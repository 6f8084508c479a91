package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** agents.db on a real SQLite file. */
class AgentStoreTest {
  @TempDir Path tmp;

  static SessionRow full(String id) {
    return new SessionRow(id, AgentType.CODEX, "fix-é", Path.of("/r/demo"), Path.of("/w/demo/fix-é"), "agentdesk/fix-é",
        "release/1.0", "0123456789abcdef0123456789abcdef01234567", "release/1.0", true,
        List.of("/bin/codex", "--model", "o3", "fix \"it\""), List.of("--model", "o3"), "5f0c1a2e-0000-4000-8000-00000000000a",
        "t-1234", new TranscriptLink("codex", "019b7f94-51b4-7593-922e-ba12b5b73b52", Path.of("/h/.codex/x.jsonl")),
        TranscriptStatus.LINKED, Lifecycle.WORKTREE_MISSING, List.of(Path.of("/w"), Path.of("/w/demo")),
        Instant.parse("2026-12-01T10:00:00.123Z"), Instant.parse("2026-12-01T10:05:00.456789Z"),
        Instant.parse("2026-12-01T10:01:00Z"));
  }

  @Test
  void aRoundTripPreservesEveryFieldAcrossReopening() {
    Path db = tmp.resolve("data/agents.db");
    SessionRow a = full("a1");
    SessionRow b = new SessionRow("b2", AgentType.CLAUDE, "n", Path.of("/r"), Path.of("/w"), null, "abc", "abc", null,
        false, List.of("claude"), List.of(), null, null, null, TranscriptStatus.SEARCHING, Lifecycle.RUNNING, List.of(),
        Instant.parse("2026-12-01T09:00:00Z"), Instant.parse("2026-12-01T09:00:00Z"), Instant.parse("2026-12-01T09:00:00Z"));
    try (AgentStore s = AgentStore.open(db)) {
      s.put(a);
      s.put(b);
    }
    try (AgentStore s = AgentStore.open(db)) {
      assertThat(s.get("a1")).contains(a);
      assertThat(s.get("b2")).contains(b);
      assertThat(s.all()).containsExactly(b, a); // by creation time
      SessionRow changed = a.withTranscript(null, TranscriptStatus.NOT_FOUND);
      s.put(changed);
      assertThat(s.get("a1")).contains(changed);
      s.delete("a1");
      assertThat(s.get("a1")).isEmpty();
      assertThat(s.all()).containsExactly(b);
    }
  }

  @Test
  void theFilesASessionLeftForANewerOneAreKeptInOrder() {
    Path db = tmp.resolve("agents.db");
    TranscriptLink first = new TranscriptLink("gemini", "g-1", Path.of("/h/.gemini/tmp/p/chats/one.jsonl"));
    TranscriptLink chain = first.movedTo(new TranscriptLink("gemini", "g-2", Path.of("/h/.gemini/tmp/p/chats/two.jsonl")))
        .movedTo(new TranscriptLink("gemini", "g-3", Path.of("/h/.gemini/tmp/p/chats/three.jsonl")));
    assertThat(chain.parts()).extracting(TranscriptLink.Part::sessionId).containsExactly("g-1", "g-2", "g-3");
    SessionRow row = full("c3").withTranscript(chain, TranscriptStatus.LINKED);
    try (AgentStore s = AgentStore.open(db)) {
      s.put(row);
    }
    try (AgentStore s = AgentStore.open(db)) {
      assertThat(s.get("c3")).contains(row);
      assertThat(s.get("c3").orElseThrow().transcript().earlier()).containsExactly(
          new TranscriptLink.Part("g-1", Path.of("/h/.gemini/tmp/p/chats/one.jsonl")),
          new TranscriptLink.Part("g-2", Path.of("/h/.gemini/tmp/p/chats/two.jsonl")));
    }
  }

  @Test
  void aVersionOneDatabaseGainsTheEarlierFilesColumnAndKeepsItsRows() throws Exception {
    Path db = tmp.resolve("v1.db");
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var st = c.createStatement()) {
      st.execute("CREATE TABLE agent_sessions (id TEXT PRIMARY KEY, agent TEXT NOT NULL,"
          + " name TEXT NOT NULL, repo TEXT NOT NULL, worktree TEXT NOT NULL, branch TEXT, base TEXT NOT NULL,"
          + " base_commit TEXT NOT NULL, base_branch TEXT, in_place INTEGER NOT NULL, argv TEXT NOT NULL,"
          + " extra_args TEXT NOT NULL, launch_id TEXT, terminal_id TEXT, transcript_provider TEXT,"
          + " transcript_session_id TEXT, transcript_path TEXT, transcript_status TEXT NOT NULL,"
          + " lifecycle TEXT NOT NULL, made_folders TEXT NOT NULL, created_at TEXT NOT NULL,"
          + " last_activity_at TEXT NOT NULL, spawned_at TEXT NOT NULL)");
      st.execute("INSERT INTO agent_sessions VALUES ('v1', 'gemini', 'n', '/r', '/w', null, 'abc', 'abc', null, 0,"
          + " '[\"gemini\"]', '[]', null, null, 'gemini', 'g-1', '/h/one.jsonl', 'linked', 'ended', '[]',"
          + " '2026-12-01T09:00:00Z', '2026-12-01T09:00:00Z', '2026-12-01T09:00:00Z')");
      st.execute("PRAGMA user_version=1");
    }
    try (AgentStore s = AgentStore.open(db)) {
      assertThat(s.get("v1").orElseThrow().transcript())
          .isEqualTo(new TranscriptLink("gemini", "g-1", Path.of("/h/one.jsonl")));
    }
  }

  @Test
  void aDatabaseFromANewerAgentdeskIsRefused() throws Exception {
    Path db = tmp.resolve("agents.db");
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var st = c.createStatement()) {
      st.execute("PRAGMA user_version=99");
    }
    assertThatThrownBy(() -> AgentStore.open(db)).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(AgentException.Reason.STORE_FAILURE);
  }
}
