package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 42 real-format Claude Code and Codex files of {@code ../shared/corpus/transcripts-peer/home}:
 * each imports without a problem line and passes every invariant; the shapes real files got wrong
 * (blank text blocks, old-layout subagent files, sidechains inside the main file, interrupts) each
 * have a test.
 */
class PeerCorpusTest {
  static Path home() {
    return SharedCorpus.require("corpus/transcripts-peer/home");
  }

  static Stream<Arguments> peerFiles() throws IOException {
    try (Stream<Path> s = Files.walk(home())) {
      return s.filter(p -> p.toString().endsWith(".jsonl")).sorted()
          .map(p -> Arguments.of(p.toString().contains("/.codex/") ? Provider.CODEX : Provider.CLAUDE,
              home().relativize(p).toString()))
          .toList().stream();
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("peerFiles")
  void importsWithoutProblemsAndEqualsItsFreshParse(Provider provider, String relative, @TempDir Path work)
      throws IOException {
    Path file = home().resolve(relative);
    assertThat(Transcripts.parse(provider, file).problems()).as("problems of %s", relative).isEmpty();
    Invariants.check(provider, file, work);
  }

  @Test
  void theWholeHomeImportsWithoutAProblemLine(@TempDir Path work) {
    try (TranscriptHistory h = TranscriptHistory.open(work.resolve("h.db"))) {
      ImportReport r = h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, home().resolve(".claude/projects")),
          new Importer.Root(Provider.CODEX, home().resolve(".codex/sessions"))), ImportListener.NONE);
      assertThat(r.filesSeen()).isEqualTo(42);
      assertThat(r.problems()).isEmpty();
      // Some of these sessions have neither a title nor a first prompt; a hit in one must not sink
      // the search (it threw a NullPointerException), and it comes back without a title.
      List<SearchHit> hits = h.search("TodoItem", 50);
      assertThat(hits).isNotEmpty();
      assertThat(hits).anySatisfy(hit -> assertThat(hit.sessionTitle()).isNull());
    }
  }

  private static SessionDetail detail(String relative) {
    return Transcripts.parse(Provider.CLAUDE, home().resolve(".claude/projects/" + relative)).detail();
  }

  private static List<DetailEntry> flat(List<DetailEntry> entries) {
    List<DetailEntry> out = new ArrayList<>();
    for (DetailEntry e : entries) {
      out.add(e);
      if (e instanceof DetailEntry.ToolCall c && c.subagent() != null) {
        out.addAll(flat(c.subagent().entries()));
      }
    }
    return out;
  }

  @Test
  void whitespaceOnlyAssistantTextIsNoMessage() {
    // 97 assistant and user lines carry a text block; in ten of them it is only "\n\n".
    SessionDetail d = detail("-home-USER-projects-spotter-worktrees-spotter-gqc/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    // 87, plus the two prompts Claude Code's queue put into running turns ("check again", "new beads …")
    assertThat(d.session().messageCount()).isEqualTo(89);
    try (Stream<Path> s = Files.walk(home())) {
      for (Path f : s.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        Provider p = f.toString().contains("/.codex/") ? Provider.CODEX : Provider.CLAUDE;
        assertThat(flat(Transcripts.parse(p, f).detail().entries())).as("blank entries of %s", f)
            .noneMatch(e -> e instanceof DetailEntry.Message m && (m.text() == null || m.text().isBlank()));
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anOldLayoutAgentFileBesideTheSessionGetsItsParent() {
    SessionDetail d = detail("-tmp-private/agent-36541525.jsonl");
    assertThat(d.session().id()).isEqualTo("agent-36541525");
    assertThat(d.session().parentSessionId()).isEqualTo("4c2ddfdc-b619-4525-8d03-1950fb1b0257");
    assertThat(detail("-path-to-Demo/agent-test-hash-123.jsonl").session().parentSessionId())
        .isEqualTo("5c0375b4-57a5-4f26-b12d-d022ee4e51b7");
  }

  @Test
  void sidechainLinesInTheMainFileAreTheThreadOfTheirTaskCall() {
    Path file = home().resolve(".claude/projects/-path-to-Demo/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    Transcripts.FreshParse fresh = Transcripts.parse(Provider.CLAUDE, file);
    SessionDetail d = fresh.detail();
    // 101 user and assistant text lines, of which 8 are the main conversation
    assertThat(d.session().messageCount()).isEqualTo(8);
    List<DetailEntry.ToolCall> tasks = d.entries().stream().filter(DetailEntry.ToolCall.class::isInstance)
        .map(DetailEntry.ToolCall.class::cast).filter(c -> "Task".equals(c.name())).toList();
    assertThat(tasks).isNotEmpty().allSatisfy(t -> {
      assertThat(t.subagent()).as("subagent of %s", t.id()).isNotNull();
      assertThat(t.subagent().sessionId()).isNull();
      assertThat(t.subagent().entries()).isNotEmpty();
      // the thread opens with the prompt the call gave its subagent
      assertThat(t.subagent().entries().get(0)).isInstanceOfSatisfying(DetailEntry.Message.class,
          m -> assertThat(t.inputJson()).contains(m.text().substring(0, Math.min(40, m.text().length()))));
    });
    // the third call's subagent ran first: matched by its prompt, not by order
    DetailEntry.ToolCall third = tasks.stream().filter(t -> t.id().equals("toolu_01LS6tcVd796SbQKmZqeVnWY"))
        .findFirst().orElseThrow();
    assertThat(((DetailEntry.Message) third.subagent().entries().get(0)).text()).startsWith("Create React components");
    // no sidechain message is left in the main conversation
    List<String> main = d.entries().stream().filter(DetailEntry.Message.class::isInstance)
        .map(e -> ((DetailEntry.Message) e).uuid()).toList();
    assertThat(fresh.records()).filteredOn(MessageRecord.class::isInstance).map(MessageRecord.class::cast)
        .filteredOn(MessageRecord::isSidechain).extracting(MessageRecord::uuid).doesNotContainAnyElementsOf(main);
    // their tokens count once, to this session: every response of the file, main or sidechain
    TokenUsage all = dev.agentdesk.transcripts.assemble.SessionDetailAssembler.usageOnce(fresh.records().stream()
        .filter(MessageRecord.class::isInstance).map(MessageRecord.class::cast).toList());
    assertThat(d.session().usage()).isEqualTo(all);
    assertThat(all.output()).isGreaterThan(0);
  }

  @Test
  void anInterruptIsAMetaCardNotAMessage() {
    SessionDetail d = detail("-Users-user-repo/624a4a58-b34c-462d-a70d-13421c8125a8.jsonl");
    List<DetailEntry.Message> cards = d.entries().stream().filter(DetailEntry.Message.class::isInstance)
        .map(DetailEntry.Message.class::cast).filter(m -> ContentTypes.INTERRUPT.equals(m.contentType())).toList();
    assertThat(cards).isNotEmpty().allSatisfy(m -> {
      assertThat(m.isMeta()).isTrue();
      assertThat(m.text()).startsWith("[Request interrupted by user");
    });
    assertThat(d.entries()).noneMatch(e -> e instanceof DetailEntry.Message m && !m.isMeta()
        && m.text() != null && m.text().startsWith("[Request interrupted"));
  }
}
