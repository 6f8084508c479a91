package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.DetailMarkdown;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claude Code 2.1 lines about the run rather than the conversation, on a 2.1.328-shaped fixture
 * ({@link Fixtures#claude21}) and on real files of the shared corpus: API-error lines, the prompt
 * queue, permission modes and the agent's own cost ({@code cost-state}).
 */
class ClaudeAgentLinesTest {
  private static final Transcripts.FreshParse FRESH = Transcripts.parse(Provider.CLAUDE, Fixtures.claude21());
  private static final String SESSION = "7d3c1f20-0000-4000-8000-000000000328";

  private static List<MessageRecord> messages(Transcripts.FreshParse p) {
    return p.records().stream().filter(MessageRecord.class::isInstance).map(MessageRecord.class::cast).toList();
  }

  private static List<DetailEntry.Message> shown(SessionDetail d) {
    return d.entries().stream().filter(DetailEntry.Message.class::isInstance).map(DetailEntry.Message.class::cast)
        .toList();
  }

  @Test
  void theFixtureHoldsEveryInvariant(@TempDir Path work) throws IOException {
    // fresh == persisted (the new header fields too), twice == once, appended pieces == whole (the
    // queue and the recorded cost across incremental reads)
    assertThat(FRESH.problems()).isEmpty();
    Invariants.check(Provider.CLAUDE, Fixtures.claude21(), work);
  }

  @Test
  void anApiErrorLineIsAnErrorCardWithItsStatusAndNoResponse() {
    List<MessageRecord> errors = messages(FRESH).stream().filter(m -> ContentTypes.ERROR.equals(m.contentType()))
        .toList();
    assertThat(errors).extracting(MessageRecord::uuid).containsExactly("s1", "e1", "e2", "e3");
    assertThat(errors).allSatisfy(m -> {
      assertThat(m.role()).isEqualTo("system");
      assertThat(m.isMeta()).isTrue();
      assertThat(m.visibility()).isEqualTo(Visibility.VISIBLE);
      assertThat(m.model()).isNull();
      assertThat(m.responseId()).isNull();
      assertThat(m.usage()).isNull();
    });
    assertThat(errors).extracting(MessageRecord::text).containsExactly("Overloaded",
        "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment. If it"
            + " persists, check https://status.claude.com.",
        // the text does not say the status: it is added
        "You've hit your session limit · resets 3:00pm (Europe/Berlin) (API error 429)",
        "Please run /login · API Error: 401 OAuth access token has expired. Re-authenticate to continue.");
    assertThat(messages(FRESH)).noneSatisfy(m -> assertThat(m.model()).isEqualTo("<synthetic>"));
  }

  @Test
  void usageCountsTheEightModelResponsesNotTheThreeErrors(@TempDir Path work) {
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claude21().getParent().getParent())),
          ImportListener.NONE);
      UsageReport byModel = h.usageReport(UsageGrouping.MODEL, PriceTable.bundled(), null);
      assertThat(byModel.rows()).extracting(UsageRow::key).containsExactly("claude-sonnet-4-5-20250929");
      assertThat(byModel.total().responses()).isEqualTo(8);
      assertThat(byModel.total().usage().output()).isEqualTo(80 + 120 + 260 + 40 + 90 + 150 + 210 + 95);
      assertThat(h.usageReport(UsageGrouping.RESPONSE, PriceTable.bundled(), SESSION).rows()).hasSize(8);
      // 8 prompts (the dequeued and the absorbed one once each) and 6 replies with text; no error card
      assertThat(h.detail(SESSION).session().messageCount()).isEqualTo(14);
    }
  }

  @Test
  void theLastCostStateIsTheSessionsRecordedCost() {
    RecordedCost c = FRESH.detail().session().recordedCost();
    assertThat(c.totalUsd()).isEqualTo(0.0693);
    assertThat(c.apiDurationMs()).isEqualTo(71_900L);
    assertThat(c.retryMs()).isEqualTo(71_900L - 41_950L);
    assertThat(c.wallDurationMs()).isEqualTo(4_310_000L);
    assertThat(c.partial()).isFalse();
    assertThat(c.models()).containsExactly(
        new RecordedCost.ModelCost("claude-sonnet-4-5-20250929", 0.0680, 59, 895, 59_500, 1320),
        new RecordedCost.ModelCost("claude-haiku-4-5-20251001", 0.0013, 610, 27, 0, 0));
    assertThat(DetailJson.write(FRESH.detail())).contains("\"recorded_cost_usd\":0.0693,\"recorded_cost\":{"
        + "\"api_duration_ms\":71900,\"retry_ms\":29950,\"wall_duration_ms\":4310000,\"partial\":false,\"models\":[");
    assertThat(DetailMarkdown.write(FRESH.detail())).contains("- recorded cost (the agent's own figure): $0.0693"
        + " (claude-sonnet-4-5-20250929 $0.0680, claude-haiku-4-5-20251001 $0.0013); API time 71.9 s, of which"
        + " retries 30.0 s\n");
  }

  @Test
  void aReadThatSeesOnlyTheFirstCostStateKeepsItAndALaterOneReplacesIt() throws IOException {
    // the session record of each read carries the cost-state it saw; absorbing keeps the later one
    SessionRecord first = new SessionRecord(SESSION, "claude", null, 0, null, null, null, null, null, null, null, 3,
        dev.agentdesk.transcripts.records.CountMode.TOTAL, null, null, "default",
        new RecordedCost(0.0411, 48_210L, 26_200L, 95_000L, false, List.of()));
    SessionRecord later = new SessionRecord(SESSION, "claude", null, 0, null, null, null, null, null, null, null, 2,
        dev.agentdesk.transcripts.records.CountMode.DELTA, null, null, null, null);
    assertThat(first.absorb(later).recordedCost().totalUsd()).isEqualTo(0.0411);
    assertThat(first.absorb(later).permissionMode()).isEqualTo("default");
    SessionRecord withCost = new SessionRecord(SESSION, "claude", null, 0, null, null, null, null, null, null, null, 2,
        dev.agentdesk.transcripts.records.CountMode.DELTA, null, null, "plan",
        new RecordedCost(0.0693, null, null, null, false, List.of()));
    assertThat(first.absorb(withCost).recordedCost().totalUsd()).isEqualTo(0.0693);
    assertThat(first.absorb(withCost).permissionMode()).isEqualTo("plan");
  }

  @Test
  void theRecordedCostIsInTheSessionListAndSurvivesTheDatabase(@TempDir Path work) {
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claude21().getParent().getParent())),
          ImportListener.NONE);
      SessionSummary s = h.sessions(new SessionQuery(null, null, null, false, 10, 0)).items().get(0);
      assertThat(s.recordedCostUsd()).isEqualTo(0.0693);
      assertThat(h.detail(SESSION).session().recordedCost()).isEqualTo(FRESH.detail().session().recordedCost());
      assertThat(h.detail(SESSION).session().permissionMode()).isEqualTo("plan");
    }
  }

  @Test
  void theLastPermissionModeIsTheSessions() {
    assertThat(FRESH.detail().session().permissionMode()).isEqualTo("plan");
    assertThat(DetailMarkdown.write(FRESH.detail())).contains("- permission mode: plan\n");
    var result = ProviderAdapter.of(Provider.CLAUDE).parse(FRESH.unit(), null);
    assertThat(result.ignored()).doesNotContainKeys("permission-mode", "cost-state", "queue-operation");
  }

  @Test
  void aQueuedPromptIsShownOnceAsTheUsersPrompt() {
    List<DetailEntry.Message> shown = shown(FRESH.detail());
    // dequeued: the user line that follows carries it
    assertThat(shown).filteredOn(m -> "also add a test for the burst case".equals(m.text())).singleElement()
        .satisfies(m -> {
          assertThat(m.uuid()).isEqualTo("u5");
          assertThat(m.isMeta()).isFalse();
        });
    // absorbed into the running turn: the queued_command attachment carries it
    assertThat(shown).filteredOn(m -> "use a window of 60 seconds".equals(m.text())).singleElement()
        .satisfies(m -> assertThat(m.uuid()).isEqualTo("att1"));
  }

  private static SessionDetail peer(String relative) {
    return Transcripts.parse(Provider.CLAUDE, SharedCorpus.require("corpus/transcripts-peer/home/.claude/projects/"
        + relative)).detail();
  }

  private static List<DetailEntry.Message> withText(SessionDetail d, String text) {
    return shown(d).stream().filter(m -> text.equals(m.text())).toList();
  }

  @Test
  void aPromptRemovedFromTheQueueWithoutALineOfItsOwnIsShownInRealFiles() {
    // Claude Code 2.0.76: enqueue, then remove without content; the prompt is in no other line
    SessionDetail d = peer("-Users-user-repo/624a4a58-b34c-462d-a70d-13421c8125a8.jsonl");
    assertThat(withText(d, "no, add conversationId field, but set value from sessionId")).singleElement()
        .satisfies(m -> {
          assertThat(m.role()).isEqualTo("user");
          assertThat(m.isMeta()).isFalse();
          assertThat(m.timestamp()).isEqualTo("2026-01-07T21:09:20.416Z");
        });
    // 2.1.39: the removed prompts are the typed ones, not the notification queued before them
    SessionDetail gqc = peer("-home-USER-projects-spotter-worktrees-spotter-gqc/"
        + "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    assertThat(withText(gqc, "check again")).hasSize(1);
    assertThat(withText(gqc, "new beads for the epic were added. tackle them")).hasSize(1);
    // 2.1.38: a queued slash command that leaves the queue runs as a command, whose own lines show it
    assertThat(withText(peer("-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl"), "/mcp"))
        .extracting(DetailEntry.Message::uuid)
        .containsExactly("fbc928bf-df77-45c9-a0ef-51d150f4caf7", "d698d364-7931-4507-99d1-79ec70bacdfd");
  }

  @Test
  void aDequeuedPromptIsNotShownTwiceInRealFiles() {
    SessionDetail d = peer("-Users-user-repo/196820da-1026-4b6f-a513-a6aae42da1a6.jsonl");
    assertThat(withText(d, "don't produce code, design solution first")).hasSize(1);
    assertThat(withText(d, "there is no need to track existing session, once /clear is found - need to complete"
        + " existing session and create completely new one")).hasSize(1);
  }

  @Test
  void theCalculatedCostStandsBesideTheRecordedOne(@TempDir Path work) {
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claude21().getParent().getParent())),
          ImportListener.NONE);
      double calculated = h.usageReport(UsageGrouping.SESSION, PriceTable.bundled(), SESSION).total().costUsd();
      // library callers get the calculated cost unless they ask for a mode; the CLI and API default to auto
      assertThat(h.usageReport(UsageQuery.of(UsageGrouping.SESSION).session(SESSION).mode(CostMode.AUTO),
          PriceTable.bundled()).total().costUsd()).isCloseTo(0.0693, within(1e-9));
      // agentdesk prices the 8 responses only; the agent also counted its title generator (haiku)
      assertThat(calculated).isCloseTo(0.045144, within(1e-9));
      assertThat(h.detail(SESSION).session().recordedCost().totalUsd()).isEqualTo(0.0693);
      UsageReport bySession = h.usageReport(UsageGrouping.SESSION, PriceTable.bundled(), null);
      assertThat(bySession.recordedCostUsd()).containsExactly(java.util.Map.entry(SESSION, 0.0693));
      assertThat(bySession.recordedCostTotal()).isEqualTo(0.0693);
      assertThat(h.usageReport(UsageGrouping.MODEL, PriceTable.bundled(), null).recordedCostUsd()).isEmpty();
    }
  }
}
