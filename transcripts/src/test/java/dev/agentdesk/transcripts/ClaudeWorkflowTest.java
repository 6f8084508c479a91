package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Workflow tool call with its run file {@code <session>/workflows/<runId>.json}: the run comes
 * from the tool result, its agents from the run file's {@code workflowProgress}.
 */
class ClaudeWorkflowTest {
  private static final String SESSION = "3e5b0000-0000-4000-8000-00000000bb01";
  private static final String RUN = "wf_4f2a91c0-7d3";
  @TempDir
  Path dir;
  Path project;
  Path file;

  @BeforeEach
  void writeSession() throws IOException {
    project = Files.createDirectories(dir.resolve("projects/-w-flow"));
    file = project.resolve(SESSION + ".jsonl");
    String base = "\"cwd\":\"/w/flow\",\"sessionId\":\"" + SESSION + "\"";
    Files.writeString(file, String.join("\n",
        "{\"type\":\"user\",\"uuid\":\"u1\",\"timestamp\":\"2026-03-02T09:00:00.000Z\"," + base
            + ",\"message\":{\"role\":\"user\",\"content\":\"Review every module\"}}",
        "{\"type\":\"assistant\",\"uuid\":\"a1\",\"timestamp\":\"2026-03-02T09:00:02.000Z\",\"requestId\":\"r1\","
            + base + ",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\","
            + "\"id\":\"toolu_wf\",\"name\":\"Workflow\",\"input\":{\"script\":\"export const meta = {}\"}}]}}",
        "{\"type\":\"user\",\"uuid\":\"u2\",\"timestamp\":\"2026-03-02T09:04:00.000Z\"," + base
            + ",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_wf\","
            + "\"content\":\"Workflow completed\"}]},\"toolUseResult\":{\"runId\":\"" + RUN + "\",\"taskId\":\"wkl0x\","
            + "\"status\":\"completed\",\"totalDurationMs\":238000,\"totalTokens\":91000}}",
        ""));
    Path runs = Files.createDirectories(project.resolve(SESSION).resolve("workflows"));
    Files.createDirectories(runs.resolve("scripts"));
    Files.writeString(runs.resolve("scripts/review-" + RUN + ".js"), "export const meta = {}\n");
    Files.writeString(runs.resolve(RUN + ".json"), "{\"runId\":\"" + RUN + "\",\"taskId\":\"wkl0x\","
        + "\"workflowName\":\"review\",\"status\":\"completed\",\"durationMs\":238000,\"totalTokens\":91000,"
        + "\"workflowProgress\":["
        + "{\"type\":\"workflow_agent\",\"label\":\"read:core\",\"phaseTitle\":\"Read\",\"agentId\":\"a91b\"},"
        + "{\"type\":\"workflow_phase\",\"phaseTitle\":\"Read\"},"
        + "{\"type\":\"workflow_agent\",\"label\":\"critique:core\",\"phaseTitle\":\"Critique\",\"agentId\":\"a07c\"}"
        + "]}");
  }

  private static DetailEntry.ToolCall workflowCall(List<DetailEntry> entries) {
    return entries.stream().filter(DetailEntry.ToolCall.class::isInstance).map(DetailEntry.ToolCall.class::cast)
        .filter(c -> c.id().equals("toolu_wf")).findFirst().orElseThrow();
  }

  @Test
  void theRunFileNamesTheAgentsOfTheWorkflowCall() throws IOException {
    DetailEntry.ToolCall call = workflowCall(Transcripts.parse(Provider.CLAUDE, file).detail().entries());
    assertThat(call.presentation()).isEqualTo("workflow");
    assertThat(call.workflow()).isNotNull();
    assertThat(call.workflow().runId()).isEqualTo(RUN);
    assertThat(call.workflow().status()).isEqualTo("completed");
    assertThat(call.workflow().agents()).extracting(DetailEntry.WorkflowAgent::agentId,
        DetailEntry.WorkflowAgent::description, DetailEntry.WorkflowAgent::type)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("a07c", "critique:core", "Critique"),
            org.assertj.core.groups.Tuple.tuple("a91b", "read:core", "Read"));
    Invariants.check(Provider.CLAUDE, file, Files.createDirectories(dir.resolve("inv")));
  }

  @Test
  void theAgentsSurviveTheDatabaseAndARewrittenRunFile() throws IOException {
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects")));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(workflowCall(h.detail(SESSION).entries()).workflow().agents()).hasSize(2);
      // a broken run file is reported, and the transcript's records stay
      Files.writeString(project.resolve(SESSION).resolve("workflows/wf_broken.json"), "{not json");
      Files.writeString(file, "{\"type\":\"user\",\"uuid\":\"u3\",\"timestamp\":\"2026-03-02T09:05:00.000Z\","
          + "\"message\":{\"role\":\"user\",\"content\":\"thanks\"}}\n", java.nio.file.StandardOpenOption.APPEND);
      ImportReport r = h.importFrom(roots, ImportListener.NONE);
      assertThat(r.problems()).singleElement().satisfies(p -> assertThat(p.file()).endsWith("wf_broken.json"));
      assertThat(workflowCall(h.detail(SESSION).entries()).workflow().agents()).hasSize(2);
    }
  }
}
