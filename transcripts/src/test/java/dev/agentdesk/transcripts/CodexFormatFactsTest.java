package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.Visibility;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One test per Codex format fact, on the project's own fixtures. */
class CodexFormatFactsTest {
  private static final Transcripts.FreshParse PARENT = Transcripts.parse(Provider.CODEX, Fixtures.codexParent());
  private static final SessionDetail DETAIL = PARENT.detail();

  static Stream<Path> fixtureFiles() {
    return Stream.of(Fixtures.codexParent(), Fixtures.codexFork());
  }

  @ParameterizedTest
  @MethodSource("fixtureFiles")
  void invariantsHoldOnOwnFixtures(Path file, @TempDir Path work) throws IOException {
    Invariants.check(Provider.CODEX, file, work);
  }

  private static List<DetailEntry.Message> messages(SessionDetail d) {
    return d.entries().stream().filter(DetailEntry.Message.class::isInstance).map(DetailEntry.Message.class::cast)
        .toList();
  }

  @Test
  void sessionMetaGivesIdentityCwdBranchVersionAndTitle() {
    SessionDetail.Header h = DETAIL.session();
    assertThat(h.id()).isEqualTo("019b9288-d680-7000-8000-000000000001");
    assertThat(h.cwd()).isEqualTo("/home/dev/api");
    assertThat(h.project()).isEqualTo("api");
    assertThat(h.gitBranch()).isEqualTo("main");
    assertThat(h.version()).isEqualTo("0.130.0");
    assertThat(h.title()).isEqualTo("Rate limiter leak");
    assertThat(h.messageCount()).isEqualTo(4);
  }

  @Test
  void eventAndResponseCopiesOfAMessageBecomeOneAfterImageWrappersAreRemoved() {
    assertThat(messages(DETAIL)).extracting(DetailEntry.Message::role, DetailEntry.Message::text).containsExactly(
        org.assertj.core.groups.Tuple.tuple("user", "Why does the rate limiter leak?"),
        org.assertj.core.groups.Tuple.tuple("assistant", "The refill reset the bucket to zero; fixed in bucket.go."),
        org.assertj.core.groups.Tuple.tuple("user", "Add a regression test"),
        org.assertj.core.groups.Tuple.tuple("assistant", "Added TestRefillKeepsCapacity."));
    assertThat(messages(DETAIL).get(1).model()).isEqualTo("gpt-5.2-codex");
  }

  @Test
  void environmentContextIsHiddenAndDeveloperMessagesAreSkipped() {
    assertThat(PARENT.records()).filteredOn(MessageRecord.class::isInstance).map(MessageRecord.class::cast)
        .filteredOn(m -> m.visibility() == Visibility.HIDDEN && "envelope".equals(m.contentType()))
        .singleElement().satisfies(m -> assertThat(m.text()).startsWith("<environment_context>"));
    assertThat(PARENT.records()).noneSatisfy(r -> assertThat(r.toString()).contains("permissions instructions"));
    var ignored = ProviderAdapter.of(Provider.CODEX).parse(PARENT.unit(), null).ignored();
    assertThat(ignored).containsEntry("response_item message (developer)", 1L);
  }

  @Test
  void encryptedReasoningIsAThinkingEntryWithoutTextAndSummaryCopiesReconcile() {
    List<DetailEntry.Thinking> thinking = DETAIL.entries().stream().filter(DetailEntry.Thinking.class::isInstance)
        .map(DetailEntry.Thinking.class::cast).toList();
    // the encrypted item and the reasoning summary are consecutive: one grouped entry, text once
    assertThat(thinking).singleElement().satisfies(t -> assertThat(t.text()).isEqualTo("Checking the bucket refill."));
  }

  @Test
  void functionAndCustomToolCallsGetTheirOutputs() {
    List<DetailEntry.ToolCall> calls = DETAIL.entries().stream().filter(DetailEntry.ToolCall.class::isInstance)
        .map(DetailEntry.ToolCall.class::cast).toList();
    assertThat(calls).extracting(DetailEntry.ToolCall::name, DetailEntry.ToolCall::presentation,
        DetailEntry.ToolCall::filePath).containsExactly(
        org.assertj.core.groups.Tuple.tuple("exec_command", "shell", null),
        org.assertj.core.groups.Tuple.tuple("apply_patch", "edit", "limiter/bucket.go"));
    assertThat(calls.get(0).inputJson()).isEqualTo("{\"cmd\":\"go test ./limiter\",\"workdir\":\"/home/dev/api\"}");
    assertThat(calls.get(0).result()).isEqualTo(new DetailEntry.Result("--- FAIL: TestRefill\n", true));
    assertThat(calls.get(1).result()).isEqualTo(new DetailEntry.Result("Success. Updated limiter/bucket.go", false));
  }

  @Test
  void tokenCountsExcludeCachedInputSkipNullInfoAndRepeatsAndSumToTheLastTotal() {
    // last_token_usage (5000/1000/300) + (6000/5000/200) + (7000/6000/150); the null info and the
    // repeated count are not counted; input here excludes the cached part.
    assertThat(DETAIL.session().usage()).isEqualTo(new TokenUsage(6000, 650, 12000, 0));
  }

  @Test
  void unknownRecordTypesAreIgnoredAndCounted() {
    var ignored = ProviderAdapter.of(Provider.CODEX).parse(PARENT.unit(), null).ignored();
    assertThat(ignored).containsEntry("future_record_kind", 1L)
        .containsEntry("event_msg token_count (no info)", 1L)
        .containsEntry("event_msg token_count (repeated)", 1L);
  }

  @Test
  void aForkThatReplaysParentTurnsDoesNotCountThemTwice(@TempDir Path work) {
    SessionDetail fork = Transcripts.parse(Provider.CODEX, Fixtures.codexFork()).detail();
    assertThat(fork.session().id()).isEqualTo("019b92bf-c500-7000-8000-000000000002");
    assertThat(fork.session().cwd()).isEqualTo("/home/dev/api-fork");
    assertThat(messages(fork)).extracting(DetailEntry.Message::text).containsExactly("Try a leaky bucket instead");
    assertThat(fork.session().usage()).isEqualTo(new TokenUsage(1000, 50, 2000, 0));
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.CODEX, Fixtures.codexDay())), ImportListener.NONE);
      List<UsageRow> bySession = h.usage(UsageGrouping.SESSION);
      TokenUsage total = bySession.stream().map(UsageRow::usage).reduce(TokenUsage.ZERO, TokenUsage::plus);
      assertThat(total).isEqualTo(new TokenUsage(7000, 700, 14000, 0));
    }
  }
}
