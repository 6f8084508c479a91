package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.transcripts.assemble.AssemblyInput;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.assemble.SessionDetailAssembler;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.Visibility;
import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.TurnDurationRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One test per Claude Code format fact, on the project's own fixtures. */
class ClaudeFormatFactsTest {
  private static final Transcripts.FreshParse MAIN = Transcripts.parse(Provider.CLAUDE, Fixtures.claudeMain());

  private static List<DetailEntry> entries() {
    return MAIN.detail().entries();
  }

  private static List<MessageRecord> messages(Transcripts.FreshParse p) {
    return p.records().stream().filter(MessageRecord.class::isInstance).map(MessageRecord.class::cast).toList();
  }

  static Stream<Path> fixtureFiles() {
    return Stream.of(Fixtures.claudeMain(), Fixtures.claudeFork(), Fixtures.claudeLive(), Fixtures.claudeSubagent());
  }

  @ParameterizedTest
  @MethodSource("fixtureFiles")
  void invariantsHoldOnOwnFixtures(Path file, @TempDir Path work) throws IOException {
    Invariants.check(Provider.CLAUDE, file, work);
  }

  @Test
  void aResponseSplitOverLinesCountsItsUsageOnceWithTheLargestOutput() {
    // msg_A is written as three lines repeating usage (output 3, 3, 57): counted once, as 57.
    TokenUsage u = MAIN.detail().session().usage();
    assertThat(u).isEqualTo(new TokenUsage(12 + 30 + 40 + 8, 57 + 20 + 30 + 15, 1000 + 1200 + 1300 + 900, 200 + 10));
    assertThat(messages(MAIN).stream().filter(m -> "msg_A|req_A".equals(m.responseId()))).hasSize(3);
  }

  @Test
  void aForkKeepsCopiedUuidsInItsOwnSession(@TempDir Path work) {
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeProject())), ImportListener.NONE);
      SessionDetail main = h.detail("5f0c1a2e-0000-4000-8000-000000000001");
      SessionDetail fork = h.detail("5f0c1a2e-0000-4000-8000-000000000002");
      assertThat(uuids(fork)).contains("u1", "a2", "fu1");
      assertThat(uuids(main)).contains("u1", "a2").doesNotContain("fu1");
      assertThat(fork.session().title()).isEqualTo("Circuit breaker fork");
    }
  }

  private static List<String> uuids(SessionDetail d) {
    return d.entries().stream().filter(DetailEntry.Message.class::isInstance).map(e -> ((DetailEntry.Message) e).uuid())
        .toList();
  }

  @Test
  void signatureOnlyThinkingIsAThinkingEntryWithoutText() {
    DetailEntry first = entries().stream().filter(DetailEntry.Thinking.class::isInstance).findFirst().orElseThrow();
    assertThat(((DetailEntry.Thinking) first).text()).isNull();
  }

  @Test
  void consecutiveThinkingBlocksAreGrouped() {
    assertThat(entries()).anySatisfy(e -> assertThat(e).isEqualTo(new DetailEntry.Thinking("a4",
        "2026-01-05T10:00:06.000Z", "Use the retry skill.\n\nThen delegate the tests.", "claude-sonnet-4-5")));
  }

  @Test
  void envelopesAreHiddenOrShownAsMetaCards() {
    List<MessageRecord> ms = messages(MAIN);
    assertThat(ms).filteredOn(m -> m.visibility() == Visibility.HIDDEN && ContentTypes.ENVELOPE.equals(m.contentType()))
        .extracting(MessageRecord::text)
        .anySatisfy(t -> assertThat(t).contains("<system-reminder>"))
        .anySatisfy(t -> assertThat(t).startsWith("Caveat: The messages below"))
        .anySatisfy(t -> assertThat(t).contains("<task-notification>"))
        .anySatisfy(t -> assertThat(t).contains("<ide_opened_file>"));
    assertThat(entries()).contains(
        new DetailEntry.Message("u1", "user", "2026-01-05T10:00:00.000Z", "Add a retry to fetch()", "text", false, null),
        new DetailEntry.Message("u7", "user", "2026-01-05T10:02:01.000Z", "/cost", "command", true, null),
        new DetailEntry.Message("u8", "user", "2026-01-05T10:02:02.000Z", "Total cost: $0.42", "command_output", true,
            null),
        new DetailEntry.Message("u9", "user", "2026-01-05T10:04:00.000Z", "Now make the backoff configurable", "text",
            false, null));
  }

  @Test
  void theSkillToolIsPresentedAsSkillAndItsInstructionsAreTyped() {
    assertThat(entries()).anySatisfy(e -> {
      assertThat(e).isInstanceOf(DetailEntry.ToolCall.class);
      assertThat(((DetailEntry.ToolCall) e).name()).isEqualTo("Skill");
      assertThat(((DetailEntry.ToolCall) e).presentation()).isEqualTo("skill");
    });
    assertThat(entries()).anySatisfy(e -> {
      assertThat(e).isInstanceOf(DetailEntry.Message.class);
      assertThat(((DetailEntry.Message) e).contentType()).isEqualTo(ContentTypes.SKILL_INSTRUCTIONS);
      assertThat(((DetailEntry.Message) e).isMeta()).isTrue();
    });
  }

  @Test
  void compactBoundaryAndSummaryAreVisibleMeta() {
    assertThat(entries()).filteredOn(DetailEntry.Message.class::isInstance).map(DetailEntry.Message.class::cast)
        .filteredOn(m -> m.contentType().startsWith("compact_"))
        .extracting(DetailEntry.Message::contentType, DetailEntry.Message::isMeta)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("compact_boundary", true),
            org.assertj.core.groups.Tuple.tuple("compact_summary", true));
  }

  @Test
  void aiTitleWinsOverSummaryLineAndCustomTitleOverAiTitle() {
    assertThat(MAIN.detail().session().title()).isEqualTo("Retry for fetch()");
    assertThat(Transcripts.parse(Provider.CLAUDE, Fixtures.claudeFork()).detail().session().title())
        .isEqualTo("Circuit breaker fork");
    assertThat(entries()).contains(new DetailEntry.Summary(entries().stream()
        .filter(DetailEntry.Summary.class::isInstance).map(e -> ((DetailEntry.Summary) e).id()).findFirst()
        .orElseThrow(), "Fetch retry with backoff", "a6"));
  }

  @Test
  void turnDurationIsARecordAndBookkeepingLinesAreIgnoredAndCounted() {
    assertThat(MAIN.records()).filteredOn(TurnDurationRecord.class::isInstance).map(TurnDurationRecord.class::cast)
        .singleElement().satisfies(t -> {
          assertThat(t.uuid()).isEqualTo("td1");
          assertThat(t.durationMs()).isEqualTo(124000);
        });
    var result = ProviderAdapter.of(Provider.CLAUDE).parse(MAIN.unit(), null);
    // the queue operation is read (an enqueue without content queues nothing); the snapshot is bookkeeping
    assertThat(result.ignored()).doesNotContainKey("queue-operation").containsEntry("file-history-snapshot", 1L);
    // the queue operation one second earlier does not move the session start
    assertThat(MAIN.detail().session().startedAt()).isEqualTo("2026-01-05T10:00:00.000Z");
  }

  @Test
  void aSubagentIsAttachedToItsTaskCall() {
    DetailEntry.ToolCall task = entries().stream().filter(DetailEntry.ToolCall.class::isInstance)
        .map(DetailEntry.ToolCall.class::cast).filter(c -> c.id().equals("toolu_task")).findFirst().orElseThrow();
    assertThat(task.subagent()).isEqualTo(new DetailEntry.Subagent("b7e1", "test-writer", "write retry tests", 81000L,
        4242L, "agent-b7e1"));
    SessionDetail sub = Transcripts.parse(Provider.CLAUDE, Fixtures.claudeSubagent()).detail();
    assertThat(sub.session().id()).isEqualTo("agent-b7e1");
    assertThat(sub.session().parentSessionId()).isEqualTo("5f0c1a2e-0000-4000-8000-000000000001");
    // agent-b7e1.meta.json beside the transcript names the agent type
    assertThat(sub.session().agentType()).isEqualTo("test-writer");
  }

  @Test
  void aCorruptLineIsReportedWithFileAndLineAndItsNeighboursSurvive() {
    assertThat(MAIN.problems()).singleElement().satisfies(p -> {
      assertThat(p.file()).endsWith("5f0c1a2e-0000-4000-8000-000000000001.jsonl");
      assertThat(p.line()).isEqualTo(8);
      assertThat(p.reason()).startsWith("invalid JSON");
    });
    // line 7 (a tool result) and line 9 (thinking and a Skill call) are both there
    assertThat(entries()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(DetailEntry.ToolCall.class,
        c -> assertThat(c.id()).isEqualTo("toolu_read")));
    assertThat(entries()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(DetailEntry.Thinking.class,
        t -> assertThat(t.uuid()).isEqualTo("a4")));
  }

  @Test
  void aTruncatedLastLineIsLeftForTheNextRead() {
    Transcripts.FreshParse live = Transcripts.parse(Provider.CLAUDE, Fixtures.claudeLive());
    assertThat(live.problems()).isEmpty();
    assertThat(uuids(live.detail())).containsExactly("u1");
  }

  @Test
  void theAssemblerRejectsADeltaSession() throws IOException {
    ProviderAdapter adapter = ProviderAdapter.of(Provider.CLAUDE);
    byte[] bytes = java.nio.file.Files.readAllBytes(Fixtures.claudeMain());
    int secondLine = indexOf(bytes, (byte) '\n') + 1;
    // a read that stopped after the first line, as an earlier small batch would have
    Path copy = Files.createTempFile("delta", ".jsonl");
    try {
      Files.write(copy, java.util.Arrays.copyOf(bytes, secondLine));
      var unit = adapter.unitFor(copy).orElseThrow();
      var first = adapter.parse(unit, null);
      Files.write(copy, bytes);
      var delta = adapter.parse(unit, first.next());
      assertThat(delta.records().get(0)).isInstanceOfSatisfying(SessionRecord.class,
          r -> assertThat(r.countMode()).isEqualTo(CountMode.DELTA));
      assertThatThrownBy(() -> SessionDetailAssembler.assembleSessionDetail(
          new AssemblyInput.FreshStream(delta.records())))
          .isInstanceOfSatisfying(TranscriptException.class,
              e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.DELTA_SESSION))
          .hasMessageContaining("delta");
    } finally {
      Files.delete(copy);
    }
  }

  private static int indexOf(byte[] b, byte v) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }
}
