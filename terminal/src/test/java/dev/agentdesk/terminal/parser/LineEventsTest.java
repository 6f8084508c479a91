package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.parseLine;
import static dev.agentdesk.terminal.parser.ParserFixtures.parseScreen;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Status lines, URLs, tokens, usage, mode lines and session conflicts. */
class LineEventsTest {
  private static <T extends ParsedEvent> List<T> only(Class<T> type, List<ParsedEvent> events) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '¦', nullValues = "null", value = {
      "✽ Nucleating… (3m 50s · ↓ 7.8k tokens)¦Nucleating¦3m 50s¦↓ 7.8k tokens",
      "· Precipitating… (12s · ↑ 1.2k tokens · esc to interrupt)¦Precipitating¦12s¦↑ 1.2k tokens",
      "✶ Thinking… (esc to interrupt)¦Thinking¦null¦null",
      "• Working (4s • esc to interrupt) · 1 background terminal running · /ps to view¦Working¦4s¦null",
      "◦ Exploring (1m 05s • esc to interrupt)¦Exploring¦1m 05s¦null",
      "⠏ Thinking... (esc to cancel, 5s)¦Thinking...¦5s¦null",
      "⠼ Confirming Basic Setup (esc to cancel, 43m 42s)¦Confirming Basic Setup¦43m 42s¦null",
      "∙ Thinking (Esc to cancel · 668 B)¦Thinking¦null¦668 B",
      "◉ Finding deploy pattern esc cancel¦Finding deploy pattern¦null¦null",
      "Tokens: 4.2k sent, 123 received. Cost: $0.01 message, $0.05 session.¦aider¦null¦4.2k sent, 123 received",
      "░█        Waiting for claude-sonnet-4¦Waiting for claude-sonnet-4¦null¦null",
      "◓  Building response chains...¦Building response chains...¦null¦null",
      "⠋ Installing dependencies… (12s)¦Installing dependencies¦12s¦null",
      // Shapes without a time suffix or an "esc to …" hint.
      "* Compiling the workspace...¦Compiling the workspace¦null¦null",
      "∴ Pondering…¦Pondering¦null¦null",
      "◦ Searching (7s)¦Searching¦7s¦null",
      "Summarising the diff...  (Ctrl+C to interrupt)¦Summarising the diff¦null¦null",
      "⠙ Indexing the repository¦Indexing the repository¦null¦null",
      "Tokens: 9.1k sent, 2k cache write, 4k cache hit, 310 received. Cost: $0.02 message.¦aider¦null¦9.1k sent, 2k cache write, 4k cache hit, 310 received",
      "[Running] cargo build¦cargo build¦null¦null",
  })
  void eachAgentsStatusLine(String line, String task, String time, String tokens) {
    List<ParsedEvent.StatusLine> s = only(ParsedEvent.StatusLine.class, parseLine(Agent.NONE, line));
    assertThat(s).as(line).hasSize(1);
    assertThat(s.get(0).taskName()).isEqualTo(task);
    assertThat(s.get(0).fullLine()).isEqualTo(line.strip());
    assertThat(s.get(0).timeInfo()).isEqualTo(time);
    assertThat(s.get(0).tokenInfo()).isEqualTo(tokens);
  }

  @ParameterizedTest
  @ValueSource(strings = {"✻ Sautéed for 1m 25s", "Loading the module… done", "• Ran the tests", "1. Thinking about it",
      "* and a few more things we could try... later", "* the rest is left as an exercise for the reader, as usual..."})
  void completedSummariesAndProseAreNotStatusLines(String line) {
    assertThat(only(ParsedEvent.StatusLine.class, parseLine(Agent.CLAUDE, line))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '¦', value = {
      "https://github.com/acme/widgets/pull/42¦42¦github",
      "  ⎿  Created https://gitlab.com/group/sub/project/-/merge_requests/7 (draft)¦7¦gitlab",
      "https://gitlab.example.org/team/app/-/merge_requests/1234¦1234¦gitlab",
      "https://bitbucket.org/acme/widgets/pull-requests/9¦9¦bitbucket",
      "https://dev.azure.com/acme/Project/_git/repo/pullrequest/314¦314¦azure-devops",
      "https://acme.visualstudio.com/Project/_git/repo/pullrequest/15¦15¦azure-devops",
  })
  void pullRequestUrlsOnEachForge(String line, int number, String platform) {
    List<ParsedEvent.PrUrl> prs = only(ParsedEvent.PrUrl.class, parseLine(Agent.NONE, line));
    assertThat(prs).hasSize(1);
    assertThat(prs.get(0).number()).isEqualTo(number);
    assertThat(prs.get(0).platform().wire()).isEqualTo(platform);
    assertThat(line).contains(prs.get(0).url());
  }

  @ParameterizedTest
  @ValueSource(strings = {"https://github.com/acme/widgets/pulls", "https://github.com/acme/widgets/issues/42",
      "https://github.com/acme/widgets/pull/0", "see github.com/acme/widgets/pull/42x"})
  void urlsThatAreNotPullRequestsAreIgnored(String line) {
    assertThat(only(ParsedEvent.PrUrl.class, parseLine(Agent.NONE, line))).isEmpty();
  }

  @Test
  void intentWithAndWithoutTitleIsAgentGated() {
    assertThat(only(ParsedEvent.Intent.class, parseLine(Agent.CLAUDE, "intent: Reading auth module for token flow (Auth review)")))
        .containsExactly(new ParsedEvent.Intent("Reading auth module for token flow", "Auth review"));
    assertThat(only(ParsedEvent.Intent.class, parseLine(Agent.CODEX, "• intent: Running the test suite")))
        .containsExactly(new ParsedEvent.Intent("Running the test suite", null));
    assertThat(parseLine(Agent.NONE, "intent: Reading auth module")).noneMatch(ParsedEvent.Intent.class::isInstance);
    assertThat(parseLine(Agent.CLAUDE, "The intent: of this module is unclear")).noneMatch(ParsedEvent.Intent.class::isInstance);
  }

  @Test
  void planFilePaths() {
    assertThat(only(ParsedEvent.PlanFile.class, parseLine(Agent.CLAUDE, "  ⎿  Plan saved to /home/me/.claude/plans/happy-otter.md")))
        .containsExactly(new ParsedEvent.PlanFile("/home/me/.claude/plans/happy-otter.md"));
    assertThat(only(ParsedEvent.PlanFile.class, parseLine(Agent.CLAUDE, "Read(~/.claude/plans/refactor.md)")))
        .containsExactly(new ParsedEvent.PlanFile("~/.claude/plans/refactor.md"));
    assertThat(parseLine(Agent.CLAUDE, "plans are in docs/plans")).noneMatch(ParsedEvent.PlanFile.class::isInstance);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '¦', value = {
      "You've used 85% of your weekly limit · resets Oct 9 at 2pm¦85¦weekly",
      "  ⎿  You’ve used 90% of your session limit · resets 3pm (Europe/Madrid)¦90¦session",
  })
  void usageLimitWithBothApostrophes(String line, int pct, String type) {
    assertThat(only(ParsedEvent.UsageLimit.class, parseLine(Agent.CLAUDE, line)))
        .containsExactly(new ParsedEvent.UsageLimit(pct, LimitType.valueOf(type.toUpperCase())));
  }

  @Test
  void usageLimitRejectsImpossiblePercentages() {
    assertThat(parseLine(Agent.CLAUDE, "You've used 250% of your weekly limit")).noneMatch(ParsedEvent.UsageLimit.class::isInstance);
  }

  @Test
  void usageExhaustedKeepsTheRawResetText() {
    assertThat(only(ParsedEvent.UsageExhausted.class, parseLine(Agent.CLAUDE, "You're out of extra usage · resets 8pm (Europe/Madrid)")))
        .containsExactly(new ParsedEvent.UsageExhausted("8pm (Europe/Madrid)"));
    assertThat(only(ParsedEvent.UsageExhausted.class, parseLine(Agent.CLAUDE, "  ⎿  You’re out of usage")))
        .containsExactly(new ParsedEvent.UsageExhausted(null));
    assertThat(parseLine(Agent.CLAUDE, "We ran out of usage ideas")).noneMatch(ParsedEvent.UsageExhausted.class::isInstance);
  }

  @Test
  void activeSubtasksCountAndTheirEnd() {
    ManualClock clock = new ManualClock(0);
    OutputParser p = new OutputParser(Agent.CLAUDE, clock);
    ScreenView s1 = ScreenView.ofLines(List.of("  ›› task · 3 local agents"));
    assertThat(p.onScreen(s1, ParserFixtures.allRows(s1))).contains(new ParsedEvent.ActiveSubtasks(3, "local agents"));
    ScreenView s2 = ScreenView.ofLines(List.of("  ⏵⏵ accept edits on (shift+tab to cycle) · 1 bash"));
    assertThat(p.onScreen(s2, ParserFixtures.allRows(s2))).contains(new ParsedEvent.ActiveSubtasks(1, "bash"));
    ScreenView s3 = ScreenView.ofLines(List.of("  ⏵⏵ accept edits on (shift+tab to cycle)"));
    assertThat(p.onScreen(s3, ParserFixtures.allRows(s3))).contains(new ParsedEvent.ActiveSubtasks(0, "bash"));
    // A mode line without a count before any count says nothing.
    assertThat(parseLine(Agent.CLAUDE, "⏵⏵ bypass permissions on (shift+tab to cycle) · ← for agents"))
        .noneMatch(ParsedEvent.ActiveSubtasks.class::isInstance);
  }

  @Test
  void sessionConflictsAndTheirCooldown() {
    String inUse = "Error: Session ID 0f6c2a4e-8d1b-4c4f-9e0a-1b2c3d4e5f60 is already in use.";
    String notFound = "No conversation found with session ID: 0f6c2a4e-8d1b-4c4f-9e0a-1b2c3d4e5f60";
    assertThat(only(ParsedEvent.AgentSessionConflict.class, parseLine(Agent.CLAUDE, inUse)))
        .singleElement().extracting(ParsedEvent.AgentSessionConflict::kind).isEqualTo(ConflictKind.IN_USE);
    assertThat(only(ParsedEvent.AgentSessionConflict.class, parseLine(Agent.CLAUDE, notFound)))
        .singleElement().extracting(ParsedEvent.AgentSessionConflict::kind).isEqualTo(ConflictKind.NOT_FOUND);
    ManualClock clock = new ManualClock(0);
    OutputParser p = new OutputParser(Agent.CLAUDE, clock);
    ScreenView a = ScreenView.ofLines(List.of(inUse));
    ScreenView b = ScreenView.ofLines(List.of("", inUse));
    assertThat(p.onScreen(a, ParserFixtures.allRows(a))).hasAtLeastOneElementOfType(ParsedEvent.AgentSessionConflict.class);
    clock.advanceBy(1_000);
    assertThat(p.onScreen(b, List.of(new RowChange(1, inUse)))).noneMatch(ParsedEvent.AgentSessionConflict.class::isInstance);
    clock.advanceBy(OutputParser.SESSION_CONFLICT_COOLDOWN_MS);
    assertThat(p.onScreen(a, List.of(new RowChange(0, inUse)))).hasAtLeastOneElementOfType(ParsedEvent.AgentSessionConflict.class);
  }

  @Test
  void slashMenuOnlyWhileTypingASlashCommand() {
    List<String> screen = List.of("❯ /co", "───────────────", "  /clear        Clear conversation history",
        "❯ /compact      Compact the conversation", "  /config       Open config panel", "");
    ManualClock clock = new ManualClock(0);
    OutputParser p = new OutputParser(Agent.CLAUDE, clock);
    ScreenView s = ScreenView.ofLines(screen);
    assertThat(p.onScreen(s, ParserFixtures.allRows(s))).noneMatch(ParsedEvent.SlashMenu.class::isInstance);
    p.onInput("/co".getBytes(), 0, 3);
    assertThat(only(ParsedEvent.SlashMenu.class, p.onScreen(s, ParserFixtures.allRows(s)))).containsExactly(
        new ParsedEvent.SlashMenu(List.of(new ParsedEvent.SlashMenuItem("/clear", false),
            new ParsedEvent.SlashMenuItem("/compact", true), new ParsedEvent.SlashMenuItem("/config", false))));
  }

  @Test
  void suggestAtColumnZeroWithTwoToFourItems() {
    assertThat(only(ParsedEvent.Suggest.class, parseScreen(Agent.CLAUDE, List.of("⏺ suggest: [ Run tests | Review diff | Deploy ]"))))
        .containsExactly(new ParsedEvent.Suggest(List.of("Run tests", "Review diff", "Deploy")));
    assertThat(parseScreen(Agent.CLAUDE, List.of("suggest: [ Only one ]"))).noneMatch(ParsedEvent.Suggest.class::isInstance);
    assertThat(parseScreen(Agent.CLAUDE, List.of("suggest: [ a | b | c | d | e ]"))).noneMatch(ParsedEvent.Suggest.class::isInstance);
    assertThat(parseScreen(Agent.CLAUDE, List.of("suggest: [ a | [b] | c ]"))).noneMatch(ParsedEvent.Suggest.class::isInstance);
    assertThat(parseScreen(Agent.CLAUDE, List.of("I suggest: [ a | b ]"))).noneMatch(ParsedEvent.Suggest.class::isInstance);
    assertThat(parseScreen(Agent.NONE, List.of("suggest: [ a | b ]"))).noneMatch(ParsedEvent.Suggest.class::isInstance);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '¦', value = {
      "Plan written to plans/billing-rework.md¦plans/billing-rework.md",
      "  ⎿  Updated .claude/plans/cache-layer.md with 3 additions¦.claude/plans/cache-layer.md",
      "Saved the plan (see docs/plans/q3-roadmap.md).¦docs/plans/q3-roadmap.md",
      "Done: ~/work/app/plans/split-modules.md.¦~/work/app/plans/split-modules.md",
      "Compare `plans/a.md`, plans/b.md for the two options¦plans/a.md",
  })
  void relativeAndAbsolutePlanPathsEndAtTheirPunctuation(String line, String path) {
    assertThat(only(ParsedEvent.PlanFile.class, parseLine(Agent.CLAUDE, line)))
        .as(line).first().extracting(ParsedEvent.PlanFile::path).isEqualTo(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ls /srv/app/plans/*.md", "cat plans/${FEATURE}.md", "https://example.com/team/plans/x.md",
      "see myplans/notes.md", "plans/draft.mdx"})
  void globsTemplatesUrlsAndOtherWordsAreNoPlanFile(String line) {
    assertThat(only(ParsedEvent.PlanFile.class, parseLine(Agent.CLAUDE, line))).as(line).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "    throw new IllegalStateException(\"Session ID 0f0e0d0c-1111-2222-3333-444455556666 is already in use\");",
      "-  echo \"No conversation found with session ID: 0f0e0d0c-1111-2222-3333-444455556666\"",
  })
  void sessionConflictsQuotedInCodeOrDiffsAreNotConflicts(String line) {
    assertThat(only(ParsedEvent.AgentSessionConflict.class, parseLine(Agent.CLAUDE, line))).as(line).isEmpty();
  }

  @Test
  void aSessionConflictInsideAFenceIsNotAConflictButOneOutsideIs() {
    String msg = "Error: Session ID 0f0e0d0c-1111-2222-3333-444455556666 is already in use.";
    assertThat(only(ParsedEvent.AgentSessionConflict.class, parseScreen(Agent.CLAUDE, List.of("```text", msg, "```"))))
        .isEmpty();
    assertThat(only(ParsedEvent.AgentSessionConflict.class, parseScreen(Agent.CLAUDE, List.of("some output", msg))))
        .hasSize(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '¦', value = {
      "3 shells · ⏵⏵ accept edits on (shift+tab to cycle)¦3¦shells",
      "1 local agent · ›› plan mode on¦1¦local agent",
      "    2 background tasks¦2¦background tasks",
  })
  void subTaskCountsLeftOfTheModeOrAloneOnTheirRow(String line, int count, String type) {
    assertThat(only(ParsedEvent.ActiveSubtasks.class, parseLine(Agent.CLAUDE, line)))
        .as(line).containsExactly(new ParsedEvent.ActiveSubtasks(count, type));
  }

  @ParameterizedTest
  @ValueSource(strings = {"  12 files changed", "  4 tests passed", "2 agents disagreed about the fix"})
  void otherCountsAreNotSubTasks(String line) {
    assertThat(only(ParsedEvent.ActiveSubtasks.class, parseLine(Agent.CLAUDE, line))).as(line).isEmpty();
  }

  @Test
  void aSlashMenuBelowTheComposerWithWrappedDescriptionsIsTheRunNearestTheCursor() {
    List<String> rows = List.of("  /stale      an old menu left in the scrollback", "  /older      another stale row", "", "",
        "──────────", "❯ /", "──────────",
        "/review                 Review the pending changes against the base branch and report",
        "                        problems by severity",
        "/release-notes          Draft release notes",
        "/ship                   Run the checks and open a pull request", "");
    ScreenView s = new ScreenView(rows, new java.util.BitSet(), 80, 5, 3, false);
    OutputParser p = new OutputParser(Agent.CLAUDE, new ManualClock(0));
    p.onInput("/".getBytes(), 0, 1);
    assertThat(only(ParsedEvent.SlashMenu.class, p.onScreen(s, ParserFixtures.allRows(s)))).containsExactly(
        new ParsedEvent.SlashMenu(List.of(new ParsedEvent.SlashMenuItem("/review", false),
            new ParsedEvent.SlashMenuItem("/release-notes", false), new ParsedEvent.SlashMenuItem("/ship", false))));
  }

  @Test
  void aMatchOnASoftWrappedLineKeepsTheSpaceAtTheWrap() {
    // 19 columns: "Rate limit reached " fills the first row, its space is the last cell.
    ParsingTerminal t = new ParsingTerminal(Agent.NONE, 19, 6, new ManualClock(0));
    byte[] out = "Rate limit reached for gpt-4o in org-1.\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<ParsedEvent.RateLimit> r = only(ParsedEvent.RateLimit.class, t.output(out, 0, out.length));
    assertThat(r).hasSize(1);
    assertThat(r.get(0).matchedText()).isEqualTo("Rate limit reached for gpt-4o in org-1.");
  }
}

