package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.testkit.OpenCodeDatabase;
import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OpenCode's JSON storage (legacy and v2 layouts) and its SQLite database, on real files and a real database. */
class OpenCodeTest {
  private static final ObjectMapper M = new ObjectMapper();

  private static Path corpus(String dir) {
    return SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/opencode/" + dir);
  }

  @Test
  void bothJsonLayoutsPassTheInvariants(@TempDir Path work) throws IOException {
    Invariants.checkSource(Provider.OPENCODE, corpus("storage_v2"), work.resolve("v2"), TranscriptHistory::open);
    Invariants.checkSource(Provider.OPENCODE, corpus("storage_legacy"), work.resolve("legacy"),
        TranscriptHistory::open);
  }

  @Test
  void aSessionReadsItsMessagesPartsToolsTokensAndInterrupt() {
    Path session = corpus("storage_v2/session/proj_test/ses_s_stage0_large.json");
    SessionDetail d = Transcripts.parse(Provider.OPENCODE, session).detail();
    assertThat(d.session().title()).isEqualTo("OpenCode Large");
    assertThat(d.session().cwd()).isEqualTo("/tmp/large");
    assertThat(d.session().usage().input()).isEqualTo(120);
    assertThat(d.session().usage().output()).isEqualTo(16);
    assertThat(d.entries()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(DetailEntry.ToolCall.class, c -> {
      assertThat(c.id()).isEqualTo("call_large_1");
      assertThat(c.presentation()).isEqualTo("shell");
      assertThat(c.result().content()).contains("No such file");
    }));
    // MessageAbortedError: the user stopped the response
    assertThat(d.entries()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.contentType()).isEqualTo(ContentTypes.INTERRUPT)));
    // flat part/ files naming their message (an older layout) are found too
    SessionDetail legacy = Transcripts.parse(Provider.OPENCODE,
        corpus("storage_legacy/session/proj_test/ses_s_stage0_drift.json")).detail();
    assertThat(legacy.entries()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(DetailEntry.ToolCall.class,
        c -> assertThat(c.id()).isEqualTo("call_legacy_1")));
  }

  @Test
  void aChangedJsonSessionIsReadAgainAndOnlyThatOne(@TempDir Path work) throws IOException {
    Path storage = copyTree(corpus("storage_v2"), work.resolve("storage"));
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      List<Importer.Root> roots = List.of(new Importer.Root(Provider.OPENCODE, storage));
      h.importFrom(roots, ImportListener.NONE);
      // OpenCode adds a part file to a message as the response streams
      Files.writeString(storage.resolve("part/m_assistant_large_2/002.json"),
          "{\"id\":\"p_text_large_2b\",\"messageID\":\"m_assistant_large_2\",\"type\":\"text\",\"text\":\"And more.\"}");
      ImportReport r = h.importFrom(roots, ImportListener.NONE);
      assertThat(r.filesChanged()).isEqualTo(1);
      Path file = storage.resolve("session/proj_test/ses_s_stage0_large.json");
      assertThat(DetailJson.write(h.detail("s_stage0_large")))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.OPENCODE, file).detail())).contains("And more.");
      // a half-written file is reported and the session keeps what was read before
      Files.writeString(storage.resolve("part/m_assistant_large_2/002.json"), "{\"id\":\"p_te");
      Files.writeString(storage.resolve("message/s_stage0_small/msg_0002.json"), "{\"id\":");
      ImportReport broken = h.importFrom(roots, ImportListener.NONE);
      assertThat(broken.problems()).extracting(LineProblem::reason).allMatch(x -> x.startsWith("invalid JSON"));
      assertThat(broken.problems()).hasSize(2);
      assertThat(DetailJson.write(h.detail("s_stage0_small"))).contains("Found 2 files.");
    }
  }

  /** A database laid out as OpenCode 1.2+ writes it, filled with the v2 corpus objects. */
  static Path database(Path dir) throws Exception {
    Path db = dir.resolve("opencode.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      OpenCodeDatabase.createSchema(c);
      Path v2 = corpus("storage_v2");
      try (Stream<Path> files = Files.walk(v2.resolve("session"))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          JsonNode j = M.readTree(f.toFile());
          try (PreparedStatement p = c.prepareStatement("INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?)")) {
            p.setString(1, j.get("id").asText());
            p.setString(2, j.get("projectID").asText());
            p.setString(3, null);
            p.setString(4, j.path("slug").asText(null));
            p.setString(5, j.get("directory").asText());
            p.setString(6, j.get("title").asText());
            p.setString(7, j.get("version").asText());
            p.setLong(8, j.path("time").path("created").asLong());
            p.setLong(9, j.path("time").path("updated").asLong());
            p.executeUpdate();
          }
        }
      }
      try (Stream<Path> files = Files.walk(v2.resolve("message"))) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          ObjectNode j = (ObjectNode) M.readTree(f.toFile());
          insertMessage(c, j.remove("id").asText(), j.remove("sessionID").asText(), j);
        }
      }
      try (Stream<Path> files = Files.walk(v2.resolve("part"))) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          ObjectNode j = (ObjectNode) M.readTree(f.toFile());
          String message = f.getParent().getFileName().toString();
          String session = message.contains("small") ? "s_stage0_small" : "s_stage0_large";
          j.remove("messageID");
          j.remove("sessionID");
          // row ids in the order the files are (OpenCode's ids grow with time)
          insertPart(c, message + "/" + f.getFileName(), message, session, j);
        }
      }
    }
    return db;
  }

  static void insertMessage(Connection c, String id, String session, JsonNode data) throws Exception {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO message VALUES (?,?,?,?,?)")) {
      p.setString(1, id);
      p.setString(2, session);
      p.setLong(3, data.path("time").path("created").asLong());
      p.setLong(4, data.path("time").path("created").asLong());
      p.setString(5, data.toString());
      p.executeUpdate();
    }
  }

  static void insertPart(Connection c, String id, String message, String session, JsonNode data) throws Exception {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO part VALUES (?,?,?,?,?,?)")) {
      p.setString(1, id);
      p.setString(2, message);
      p.setString(3, session);
      p.setLong(4, 1);
      p.setLong(5, System.currentTimeMillis());
      p.setString(6, data.toString());
      p.executeUpdate();
    }
  }

  @Test
  void theDatabaseIsReadWhileOpenCodeHoldsAWriteTransactionAndNeverLocksItOut(@TempDir Path work) throws Exception {
    Path db = database(work);
    try (Connection writer = DriverManager.getConnection("jdbc:sqlite:" + db);
        TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      writer.setAutoCommit(false);
      // OpenCode is mid-write: a row inserted, not committed
      insertMessage(writer, "m_user_small_2", "s_stage0_small",
          M.readTree("{\"role\":\"user\",\"time\":{\"created\":1730000004000}}"));
      insertPart(writer, "zz1", "m_user_small_2", "s_stage0_small", M.readTree("{\"type\":\"text\",\"text\":\"Again\"}"));
      List<Importer.Root> roots = List.of(new Importer.Root(Provider.OPENCODE, work));
      ImportReport first = h.importFrom(roots, ImportListener.NONE);
      assertThat(first.problems()).isEmpty();
      assertThat(first.filesSeen()).isEqualTo(2);
      // the import saw the committed state only, and the writer was never blocked
      assertThat(DetailJson.write(h.detail("s_stage0_small"))).doesNotContain("Again");
      writer.commit();
      ImportReport second = h.importFrom(roots, ImportListener.NONE);
      assertThat(second.filesChanged()).as("only the changed session is read again").isEqualTo(1);
      assertThat(DetailJson.write(h.detail("s_stage0_small"))).contains("Again")
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.OPENCODE, Path.of(db + "#s_stage0_small")).detail()));
      assertThat(h.importFrom(roots, ImportListener.NONE).bytesRead()).isZero();
      // the writer can still write after every import
      insertMessage(writer, "m_x", "s_stage0_large", M.readTree("{\"role\":\"user\",\"time\":{\"created\":1}}"));
      writer.commit();
    }
    Invariants.checkSource(Provider.OPENCODE, db, work.resolve("inv"), TranscriptHistory::open);
  }

  @Test
  void aBrokenRowIsAProblemAndItsNeighboursStay(@TempDir Path work) throws Exception {
    Path db = database(work);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      insertPart(c, "zz-broken", "m_user_small", "s_stage0_small", M.readTree("1"));
      try (Statement s = c.createStatement()) {
        s.execute("UPDATE part SET data = '{\"type\":\"te' WHERE id = 'zz-broken'");
      }
    }
    Transcripts.FreshParse p = Transcripts.parse(Provider.OPENCODE, Path.of(db + "#s_stage0_small"));
    assertThat(p.problems()).singleElement().satisfies(x -> assertThat(x.reason()).startsWith("invalid JSON"));
    assertThat(DetailJson.write(p.detail())).contains("Hello").contains("Found 2 files.");
  }

  @Test
  void aSessionInBothTheDatabaseAndOldFilesIsReadOnceFromTheDatabase(@TempDir Path work) throws Exception {
    Path home = Files.createDirectories(work.resolve("opencode"));
    database(home);
    copyTree(corpus("storage_v2"), home.resolve("storage"));
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      ImportReport r = h.importFrom(List.of(new Importer.Root(Provider.OPENCODE, home)), ImportListener.NONE);
      assertThat(r.filesSeen()).isEqualTo(2);
      assertThat(r.problems()).isEmpty();
    }
  }

  static Path copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
          t.toFile().setWritable(true);
        }
      }
    }
    return to;
  }
}
