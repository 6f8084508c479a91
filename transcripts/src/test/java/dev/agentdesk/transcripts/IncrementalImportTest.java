package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.adapter.ClaudeCodeAdapter;
import dev.agentdesk.transcripts.adapter.Cursor;
import dev.agentdesk.transcripts.adapter.ParseResult;
import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.adapter.SourceUnit;
import dev.agentdesk.transcripts.assemble.AssemblyInput;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.SessionDetailAssembler;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cursors: append resumes, rewrite/truncate/replace restart cleanly, a partial last line waits. */
class IncrementalImportTest {
  @TempDir
  Path dir;
  Path file;
  final ProviderAdapter adapter = ProviderAdapter.of(Provider.CLAUDE);

  private static String line(String uuid, String text) {
    return "{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"2026-03-01T10:00:00Z\",\"cwd\":\"/w\","
        + "\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}\n";
  }

  @BeforeEach
  void setUp() throws IOException {
    file = Files.createDirectories(dir.resolve("projects/p")).resolve("s1.jsonl");
    Files.writeString(file, line("m1", "first") + line("m2", "second"));
  }

  private SourceUnit unit() {
    return adapter.unitFor(file).orElseThrow();
  }

  private static List<String> uuids(ParseResult r) {
    return r.records().stream().filter(MessageRecord.class::isInstance).map(x -> ((MessageRecord) x).uuid()).toList();
  }

  @Test
  void anAppendedFileResumesWithADelta() throws IOException {
    ParseResult first = adapter.parse(unit(), null);
    assertThat(((SessionRecord) first.records().get(0)).countMode()).isEqualTo(CountMode.TOTAL);
    Files.writeString(file, line("m3", "third"), StandardOpenOption.APPEND);
    ParseResult next = adapter.parse(unit(), first.next());
    assertThat(((SessionRecord) next.records().get(0)).countMode()).isEqualTo(CountMode.DELTA);
    assertThat(((SessionRecord) next.records().get(0)).messageCount()).isEqualTo(1);
    assertThat(uuids(next)).containsExactly("m3");
    assertThat(next.bytesRead()).isEqualTo(line("m3", "third").getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void aRewrittenFileRestartsCleanly() throws IOException {
    ParseResult first = adapter.parse(unit(), null);
    Files.writeString(file, line("x1", "other") + line("x2", "content") + line("x3", "entirely"));
    ParseResult next = adapter.parse(unit(), first.next());
    assertThat(next.records().get(0)).isInstanceOfSatisfying(DeleteSessionRecord.class,
        d -> assertThat(d.reason()).isEqualTo("file was rewritten"));
    assertThat(((SessionRecord) next.records().get(1)).countMode()).isEqualTo(CountMode.TOTAL);
    assertThat(uuids(next)).containsExactly("x1", "x2", "x3");
  }

  @Test
  void aTruncatedFileRestartsCleanly() throws IOException {
    ParseResult first = adapter.parse(unit(), null);
    Files.writeString(file, line("m1", "first"));
    ParseResult next = adapter.parse(unit(), first.next());
    assertThat(next.records().get(0)).isInstanceOfSatisfying(DeleteSessionRecord.class,
        d -> assertThat(d.reason()).isEqualTo("file was truncated"));
    assertThat(uuids(next)).containsExactly("m1");
  }

  @Test
  void aReplacedFileRestartsCleanly() throws IOException {
    ParseResult first = adapter.parse(unit(), null);
    Path fresh = dir.resolve("new.jsonl");
    Files.writeString(fresh, line("m1", "first") + line("m2", "second") + line("m3", "third"));
    Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    ParseResult next = adapter.parse(unit(), first.next());
    assertThat(next.records().get(0)).isInstanceOfSatisfying(DeleteSessionRecord.class,
        d -> assertThat(d.reason()).isEqualTo("file was replaced"));
    assertThat(uuids(next)).containsExactly("m1", "m2", "m3");
  }

  @Test
  void aPartialLastLineWaitsForTheRestAndIsReadOnce() throws IOException {
    String third = line("m3", "third");
    Files.writeString(file, third.substring(0, 30), StandardOpenOption.APPEND);
    ParseResult first = adapter.parse(unit(), null);
    assertThat(uuids(first)).containsExactly("m1", "m2");
    assertThat(first.problems()).isEmpty();
    Files.writeString(file, third.substring(30), StandardOpenOption.APPEND);
    ParseResult next = adapter.parse(unit(), first.next());
    assertThat(uuids(next)).containsExactly("m3");
    assertThat(next.problems()).isEmpty();
  }

  @Test
  void theDatabaseFollowsRewritesWithoutKeepingStaleRecords() throws IOException {
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects")));
      h.importFrom(roots, ImportListener.NONE);
      Files.writeString(file, line("x1", "rewritten"));
      h.importFrom(roots, ImportListener.NONE);
      String stored = DetailJson.write(h.detail("s1"));
      assertThat(stored).isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, file).detail()));
      assertThat(stored).contains("rewritten").doesNotContain("second");
    }
  }

  @Test
  void smallBatchesAssembleToTheSameDetailAsOneRead() {
    Path main = Fixtures.claudeMain();
    ClaudeCodeAdapter small = new ClaudeCodeAdapter(300);
    SourceUnit u = small.unitFor(main).orElseThrow();
    List<TranscriptRecord> all = new ArrayList<>();
    Cursor c = null;
    int batches = 0;
    while (true) {
      ParseResult r = small.parse(u, c);
      all.addAll(r.records());
      c = r.next();
      batches++;
      if (r.atEnd()) {
        break;
      }
    }
    assertThat(batches).isGreaterThan(5);
    String piecewise = DetailJson.write(SessionDetailAssembler.assembleSessionDetail(new AssemblyInput.FreshStream(all)));
    assertThat(piecewise).isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, main).detail()));
  }
}
