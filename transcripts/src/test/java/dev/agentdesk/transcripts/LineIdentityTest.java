package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A line written twice counts once; a line that is not UTF-8 text is reported and skipped alone. */
class LineIdentityTest {
  private static final String SESSION = "3e5b0000-0000-4000-8000-00000000aa01";
  @TempDir
  Path dir;
  Path file;

  private static String user(String uuid, String text) {
    return "{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"2026-03-01T10:00:00.000Z\",\"cwd\":\"/w\","
        + "\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}\n";
  }

  private static String assistant(String uuid, String text) {
    return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"2026-03-01T10:00:01.000Z\","
        + "\"requestId\":\"req_" + uuid + "\",\"message\":{\"id\":\"msg_" + uuid + "\",\"role\":\"assistant\","
        + "\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}}\n";
  }

  @BeforeEach
  void setUp() throws IOException {
    file = Files.createDirectories(dir.resolve("projects/p")).resolve(SESSION + ".jsonl");
  }

  private void append(String text) throws IOException {
    Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private void appendBytes(byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private ImportReport importAll(TranscriptHistory h) {
    return h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects"))), ImportListener.NONE);
  }

  @Test
  void aMessageWrittenTwiceCountsOnceInAFreshParseAndInTheStore() throws IOException {
    append(user("u1", "hello") + assistant("a1", "hi") + user("u1", "hello") + assistant("a1", "hi")
        + user("u2", "bye"));
    assertThat(Transcripts.parse(Provider.CLAUDE, file).detail().session().messageCount()).isEqualTo(3);
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      importAll(h);
      assertThat(h.detail(SESSION).session().messageCount()).isEqualTo(3);
    }
    Invariants.check(Provider.CLAUDE, file, dir.resolve("inv"));
  }

  @Test
  void aMessageRepeatedInALaterAppendCountsOnce() throws IOException {
    append(user("u1", "hello") + assistant("a1", "hi"));
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      importAll(h);
      assertThat(h.detail(SESSION).session().messageCount()).isEqualTo(2);
      // the writer resumes and writes its last line again before going on
      append(assistant("a1", "hi") + user("u2", "more"));
      importAll(h);
      assertThat(h.detail(SESSION).session().messageCount()).isEqualTo(3);
      assertThat(h.detail(SESSION).session().messageCount())
          .isEqualTo(Transcripts.parse(Provider.CLAUDE, file).detail().session().messageCount());
    }
  }

  @Test
  void aLineStartingWithNulBytesIsReportedAsCorruptAndItsNeighboursAreKept() throws IOException {
    append(user("u1", "before"));
    // Without an explicit check the JSON parser guesses UTF-16 from the NUL bytes.
    byte[] corrupt = ("\0\0" + user("u2", "garbled").substring(2)).getBytes(StandardCharsets.UTF_8);
    appendBytes(corrupt);
    append(user("u3", "after"));
    Transcripts.FreshParse p = Transcripts.parse(Provider.CLAUDE, file);
    assertThat(p.problems()).singleElement().satisfies(problem -> {
      assertThat(problem.line()).isEqualTo(2);
      assertThat(problem.reason()).startsWith("corrupt line").contains("NUL");
    });
    assertThat(p.detail().entries()).extracting(e -> ((DetailEntry.Message) e).uuid()).containsExactly("u1", "u3");
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      ImportReport r = importAll(h);
      assertThat(r.problems()).singleElement().satisfies(problem -> assertThat(problem.line()).isEqualTo(2));
      assertThat(h.detail(SESSION).entries()).hasSize(2);
    }
  }

  @Test
  void aLineStartingWithAUtf16ByteOrderMarkIsReportedAsCorrupt() throws IOException {
    append(user("u1", "before"));
    byte[] utf16 = user("u2", "wide").getBytes(StandardCharsets.UTF_16);
    // keep the newline a single byte so the line boundary stays where a writer would put it
    appendBytes(java.util.Arrays.copyOf(utf16, utf16.length - 2));
    append("\n" + user("u3", "after"));
    Transcripts.FreshParse p = Transcripts.parse(Provider.CLAUDE, file);
    assertThat(p.problems()).isNotEmpty().allSatisfy(problem -> assertThat(problem.reason()).startsWith("corrupt line"));
    assertThat(p.detail().entries()).extracting(e -> ((DetailEntry.Message) e).uuid()).contains("u1", "u3");
  }

  @Test
  void halfOfASurrogatePairBecomesAReplacementCharacterAndTheStoredDetailStaysEqual() throws IOException {
    // An emoji cut in two: its first half escaped alone, in message text and in tool input; an
    // intact pair escaped as two halves stays the emoji. (A broken pair in a field name is refused
    // by the JSON parser and reported as an invalid line.)
    append(user("u1", "cut \\ud83d here, whole \\ud83d\\ude80, low \\udc00 alone"));
    append("{\"type\":\"assistant\",\"uuid\":\"a1\",\"timestamp\":\"2026-03-01T10:00:01.000Z\",\"requestId\":\"r1\","
        + "\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\","
        + "\"name\":\"Bash\",\"input\":{\"command\":\"echo \\uD83D\"}}]}}\n");
    Transcripts.FreshParse p = Transcripts.parse(Provider.CLAUDE, file);
    assertThat(p.problems()).isEmpty();
    String fresh = DetailJson.write(p.detail());
    assertThat(fresh).contains("cut \uFFFD here, whole \uD83D\uDE80, low \uFFFD alone")
        .contains("echo \uFFFD");
    // no lone surrogate left: the text survives a UTF-8 round trip
    assertThat(new String(fresh.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(fresh);
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      importAll(h);
      assertThat(DetailJson.write(h.detail(SESSION))).isEqualTo(fresh);
      assertThat(DetailJson.writeUtf8(h.detail(SESSION))).isEqualTo(fresh.getBytes(StandardCharsets.UTF_8));
      assertThat(h.search("here", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u1"));
    }
  }
}
