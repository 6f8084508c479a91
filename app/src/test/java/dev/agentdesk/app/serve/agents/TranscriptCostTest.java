package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.TranscriptLink;
import dev.agentdesk.testkit.OpenCodeDatabase;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An agent's cost read from its linked transcript itself (serve --no-import), in Claude Code's format. */
class TranscriptCostTest {
  @TempDir Path tmp;

  static String assistant(String uuid, String msgId, String model, long in, long out, long cacheWrite, long cacheRead) {
    return "{\"parentUuid\":null,\"isSidechain\":false,\"type\":\"assistant\",\"uuid\":\"" + uuid
        + "\",\"timestamp\":\"2026-12-01T22:31:50.000Z\",\"sessionId\":\"s1\",\"message\":{\"id\":\"" + msgId
        + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + model
        + "\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":"
        + in + ",\"cache_creation_input_tokens\":" + cacheWrite + ",\"cache_read_input_tokens\":" + cacheRead
        + ",\"output_tokens\":" + out + "}}}\n";
  }

  static final String USER = "{\"parentUuid\":null,\"isSidechain\":false,\"type\":\"user\",\"uuid\":\"u1\","
      + "\"timestamp\":\"2026-12-01T22:31:49.000Z\",\"sessionId\":\"s1\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";

  AgentCost costs(String lines) throws Exception {
    Path f = tmp.resolve("s1.jsonl");
    Files.writeString(f, lines);
    return new TranscriptCost(PriceTable::bundled).of(new TranscriptLink("claude", "s1", f));
  }

  Double cost(String lines) throws Exception {
    return costs(lines).usd();
  }

  @Test
  void eachResponseIsPricedOnceAndAnErrorsZeroUsageIsNoResponse() throws Exception {
    double expected = PriceTable.bundled().find("claude-opus-5-5").orElseThrow().at("2026-12-01")
        .usd(new TokenUsage(1200, 34, 66, 500, 0));
    Double usd = cost(USER + assistant("a1", "msg_1", "claude-opus-5-5", 1200, 34, 500, 66)
        + assistant("a2", "msg_1", "claude-opus-5-5", 1200, 34, 500, 66)
        + assistant("a3", "msg_err", "<synthetic>", 0, 0, 0, 0));
    assertThat(expected).isPositive();
    assertThat(usd).isEqualTo(Math.round(expected * 1e6) / 1e6);
  }

  @Test
  void aSessionThatWentOnInANewerFileCostsWhatEveryOneOfItsFilesDoes() throws Exception {
    var p = PriceTable.bundled().find("claude-opus-5-5").orElseThrow().at("2026-12-01");
    Path one = tmp.resolve("one.jsonl");
    Path two = tmp.resolve("two.jsonl");
    Files.writeString(one, USER + assistant("a1", "msg_1", "claude-opus-5-5", 1200, 34, 500, 66));
    Files.writeString(two, USER + assistant("a2", "msg_2", "claude-opus-5-5", 300, 12, 0, 900));
    TranscriptLink link = new TranscriptLink("claude", "s2", two, java.util.List.of(new TranscriptLink.Part("s1", one)));
    double expected = p.usd(new TokenUsage(1200, 34, 66, 500, 0)) + p.usd(new TokenUsage(300, 12, 900, 0, 0));
    assertThat(new TranscriptCost(PriceTable::bundled).of(link).usd()).isEqualTo(Math.round(expected * 1e6) / 1e6);
    // an earlier file with an unpriced model makes the whole unknown
    Files.writeString(one, USER + assistant("a1", "msg_1", "no-such-model-7", 10, 5, 0, 0));
    assertThat(new TranscriptCost(PriceTable::bundled).of(link).usd()).isNull();
  }

  @Test
  void theHistorysCostOfASessionThatWentOnInANewerFileIsTheSumOfItsFilesOnceAllArePriced() {
    TranscriptLink one = new TranscriptLink("gemini", "g-2", tmp.resolve("two.jsonl"));
    TranscriptLink chain = new TranscriptLink("gemini", "g-2", tmp.resolve("two.jsonl"),
        java.util.List.of(new TranscriptLink.Part("g-1", tmp.resolve("one.jsonl"))));
    java.util.Map<String, AgentCost> history = new java.util.HashMap<>(java.util.Map.of(
        "g-1", new AgentCost(0.001234, null), "g-2", new AgentCost(0.002, 0.5)));
    assertThat(AgentsArea.historyCost(one, history::get)).isEqualTo(new AgentCost(0.002, 0.5));
    assertThat(AgentsArea.historyCost(chain, history::get)).isEqualTo(new AgentCost(0.003234, 0.5));
    // the first file not imported (or not priced) yet: the history does not know the session's cost
    history.put("g-1", new AgentCost(null, null));
    assertThat(AgentsArea.historyCost(chain, history::get)).isNull();
    history.remove("g-1");
    assertThat(AgentsArea.historyCost(chain, history::get)).isNull();
  }

  @Test
  void aFileIsParsedAgainOnlyOnceItChanged() throws Exception {
    var p = PriceTable.bundled().find("claude-opus-5-5").orElseThrow().at("2026-12-01");
    Path f = tmp.resolve("s1.jsonl");
    String first = USER + assistant("a1", "msg_1", "claude-opus-5-5", 1200, 34, 500, 66);
    Files.writeString(f, first);
    TranscriptCost costs = new TranscriptCost(PriceTable::bundled);
    TranscriptLink link = new TranscriptLink("claude", "s1", f);
    double one = Math.round(p.usd(new TokenUsage(1200, 34, 66, 500, 0)) * 1e6) / 1e6;
    assertThat(costs.of(link).usd()).isEqualTo(one);
    // the same size and time: the price read before stands (the file is not read again)
    java.nio.file.attribute.FileTime stamp = Files.getLastModifiedTime(f);
    Files.writeString(f, first.replace("\"input_tokens\":1200", "\"input_tokens\":9999"));
    Files.setLastModifiedTime(f, stamp);
    assertThat(costs.of(link).usd()).isEqualTo(one);
    // it grew: read again
    Files.writeString(f, first + assistant("a2", "msg_2", "claude-opus-5-5", 300, 12, 0, 900));
    double two = Math.round((p.usd(new TokenUsage(1200, 34, 66, 500, 0)) + p.usd(new TokenUsage(300, 12, 900, 0, 0)))
        * 1e6) / 1e6;
    assertThat(costs.of(link).usd()).isEqualTo(two);
  }

  @Test
  void aDatabaseTheAgentHoldsOpenIsReadAgainWhenOnlyItsWriteAheadLogGrew() throws Exception {
    var p = PriceTable.bundled().find("gpt-4o").orElseThrow().at(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
    Path db = tmp.resolve("opencode/opencode.db");
    try (OpenCodeDatabase opencode = OpenCodeDatabase.create(db, "ses_1", tmp.toString(), "priced")) {
      opencode.message("msg_1", "ses_1", "user", 0, null, null);
      opencode.message("msg_2", "ses_1", "assistant", 1, "gpt-4o", OpenCodeDatabase.tokens(1000, 200));
      TranscriptCost costs = new TranscriptCost(PriceTable::bundled);
      TranscriptLink link = new TranscriptLink("opencode", "ses_1", Path.of(db + "#ses_1"));
      assertThat(costs.of(link).usd()).isEqualTo(Math.round(p.usd(new TokenUsage(1000, 200, 0, 0, 0)) * 1e6) / 1e6);

      java.nio.file.attribute.FileTime main = Files.getLastModifiedTime(db);
      long size = Files.size(db);
      opencode.message("msg_3", "ses_1", "assistant", 2, "gpt-4o", OpenCodeDatabase.tokens(500, 50));
      Files.setLastModifiedTime(db, main); // what a checkpoint-free write leaves: the main file as it was
      assertThat(Files.size(db)).isEqualTo(size);
      double both = p.usd(new TokenUsage(1000, 200, 0, 0, 0)) + p.usd(new TokenUsage(500, 50, 0, 0, 0));
      assertThat(costs.of(link).usd()).isEqualTo(Math.round(both * 1e6) / 1e6);
    }
  }

  @Test
  void aModelWithoutAPriceOrNoResponseAtAllIsUnknownNotZero() throws Exception {
    assertThat(cost(USER + assistant("a1", "msg_1", "no-such-model-7", 10, 5, 0, 0))).isNull();
    assertThat(cost(USER)).isNull();
    assertThat(new TranscriptCost(PriceTable::bundled).of(new TranscriptLink("claude", "x", tmp.resolve("gone.jsonl"))))
        .isEqualTo(AgentCost.NONE);
  }

  @Test
  void theAgentsOwnFigureIsItsLastCostStateAndNullWithoutOne() throws Exception {
    String response = USER + assistant("a1", "msg_1", "claude-opus-5-5", 1200, 34, 500, 66);
    assertThat(costs(response).agentUsd()).isNull();
    String state = "{\"type\":\"cost-state\",\"sessionId\":\"s1\",\"totalCostUSD\":%s,\"modelUsage\":{}}\n";
    AgentCost both = costs(response + state.formatted("0.0011") + state.formatted("0.00723456789"));
    assertThat(both.agentUsd()).isEqualTo(0.007235);
    assertThat(both.usd()).isEqualTo(cost(response));
  }
}
