package dev.agentdesk.transcripts.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled genai-prices table, name normalisation, tiers, periods, overrides and bad files. */
class PriceTableTest {
  static final PriceTable T = PriceTable.bundled();

  private static String id(String model) {
    return T.find(model).map(ModelPrice::id).orElse("unpriced");
  }

  @Test
  void theBundledTableSaysWhereItCameFrom() {
    assertThat(T.source()).contains("genai-prices");
    assertThat(T.version()).isEqualTo("0.1.8");
    assertThat(T.published()).isEqualTo("2026-09-23");
    assertThat(T.modelCount()).isGreaterThan(150);
  }

  @Test
  void namesAsTranscriptsAndGatewaysWriteThemFindTheirModel() {
    assertThat(id("claude-sonnet-4-5-20250929")).isEqualTo("claude-sonnet-4-5");
    assertThat(id("claude-haiku-4-5-20251001")).isEqualTo("claude-haiku-4-5");
    assertThat(id("claude-opus-4-1-20250805")).isEqualTo("claude-opus-4-1");
    assertThat(id("anthropic/claude-sonnet-4-5")).isEqualTo("claude-sonnet-4-5");
    assertThat(id("us.anthropic.claude-sonnet-4-5-20250929-v1:0")).isEqualTo("claude-sonnet-4-5");
    assertThat(id("claude-sonnet-4-5@20250929")).isEqualTo("claude-sonnet-4-5");
    assertThat(id("claude-sonnet-4-5[1m]")).isEqualTo("claude-sonnet-4-5");
    assertThat(id("CLAUDE-SONNET-4-5")).isEqualTo("claude-sonnet-4-5");
    assertThat(id("gpt-5.2-codex")).isEqualTo("gpt-5.2");
    assertThat(id("openai/gpt-5.2-2025-12-11")).isEqualTo("gpt-5.2");
    assertThat(id("gpt-5-mini-2025-08-07")).isEqualTo("gpt-5-mini");
    assertThat(id("models/gemini-2.5-pro")).isEqualTo("gemini-2.5-pro");
    assertThat(id("gemini-3-flash-preview")).isEqualTo("gemini-3-flash-preview");
    assertThat(id("mystery-model-7")).isEqualTo("unpriced");
    assertThat(id("<synthetic>")).isEqualTo("unpriced");
    assertThat(T.find(null)).isEmpty();
  }

  @Test
  void aLongContextIsPricedAtTheTierForTheWholeResponse() {
    Rates sonnet = T.find("claude-sonnet-4-5").orElseThrow().at("2026-03-01");
    // 1,000 input, 500 output, 10,000 cache read, 2,000 cache write of which 1,000 for one hour
    assertThat(sonnet.usd(new TokenUsage(1000, 500, 10_000, 2000, 1000)))
        .isCloseTo((1000 * 3 + 500 * 15 + 10_000 * 0.3 + 1000 * 3.75 + 1000 * 6) / 1e6, within(1e-12));
    // above 200k tokens of context every token of the response costs the tier price
    assertThat(sonnet.usd(new TokenUsage(250_000, 1000, 0, 0))).isCloseTo((250_000 * 6 + 1000 * 22.5) / 1e6,
        within(1e-12));
    assertThat(sonnet.usd(new TokenUsage(200_000, 1000, 0, 0))).isCloseTo((200_000 * 3 + 1000 * 15) / 1e6,
        within(1e-12));
  }

  @Test
  void pricesChangeOnTheDayTheirPeriodStarts() {
    ModelPrice sol = T.find("gpt-5.6-sol").orElseThrow();
    TokenUsage u = new TokenUsage(100_000, 0, 0, 0);
    assertThat(sol.at("2026-08-20").usd(u)).isCloseTo(0.5, within(1e-9));
    assertThat(sol.at("2026-08-21").usd(u)).isCloseTo(0.4, within(1e-9));
    assertThat(sol.at(null).usd(u)).isCloseTo(0.4, within(1e-9));
    // above 272k tokens of context (the tier starts after 271,999) the whole response costs double
    assertThat(sol.at("2026-09-01").usd(new TokenUsage(272_000, 0, 0, 0))).isCloseTo(272_000 * 8 / 1e6, within(1e-9));
  }

  @Test
  void overridesComeFirstAndAPrefixCoversAFamily() {
    PriceTable o = T.withOverrides(PriceTable.parseOverrides(("{\"models\": {\"claude-sonnet-4-5\": {\"input_mtok\": 1,"
        + " \"output_mtok\": 2}, \"local-*\": [{\"prices\": {\"input_mtok\": 0.5, \"output_mtok\": 0.5}},"
        + " {\"constraint\": {\"type\": \"start_date\", \"start_date\": \"2026-06-01\"}, \"prices\": {\"input_mtok\": 1,"
        + " \"output_mtok\": 1}}]}}").getBytes(StandardCharsets.UTF_8), "overrides"));
    assertThat(o.find("claude-sonnet-4-5").orElseThrow().at("2026-01-01").usd(new TokenUsage(1_000_000, 0, 0, 0)))
        .isCloseTo(1, within(1e-9));
    assertThat(o.find("local-llama").orElseThrow().at("2026-05-31").usd(new TokenUsage(1_000_000, 0, 0, 0)))
        .isCloseTo(0.5, within(1e-9));
    assertThat(o.find("local-llama").orElseThrow().at("2026-06-01").usd(new TokenUsage(1_000_000, 0, 0, 0)))
        .isCloseTo(1, within(1e-9));
    assertThat(o.find("claude-haiku-4-5").orElseThrow().id()).isEqualTo("claude-haiku-4-5");
  }

  @Test
  void aCorruptFileIsATypedErrorNamingTheFileAndTheFault() {
    assertThatThrownBy(() -> PriceTable.parse("{not json".getBytes(StandardCharsets.UTF_8), "x.json"))
        .isInstanceOfSatisfying(TranscriptException.class,
            e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.BAD_PRICE_FILE))
        .hasMessageStartingWith("x.json: not JSON");
    assertThatThrownBy(() -> PriceTable.parse(("[{\"id\": \"p\", \"models\": [{\"id\": \"m\", \"prices\":"
        + " {\"input_mtok\": -1, \"output_mtok\": 1}}]}]").getBytes(StandardCharsets.UTF_8), "x.json"))
        .hasMessage("x.json: model p/m: input_mtok = -1.0 is not a price per million tokens");
    assertThatThrownBy(() -> PriceTable.parse("{\"providers\": 3}".getBytes(StandardCharsets.UTF_8), "x.json"))
        .hasMessageContaining("expected an array of providers");
    assertThatThrownBy(() -> PriceTable.parse("[] {\"providers\": []}".getBytes(StandardCharsets.UTF_8), "x.json"))
        .hasMessageStartingWith("x.json: not JSON: more than one JSON value");
    assertThatThrownBy(() -> PriceTable.parse("".getBytes(StandardCharsets.UTF_8), "x.json"))
        .hasMessage("x.json: empty");
    assertThatThrownBy(() -> PriceTable.parseOverrides("{\"models\": {\"m\": ".getBytes(StandardCharsets.UTF_8),
        "o.json")).hasMessageStartingWith("o.json: not JSON");
  }

  @Test
  void theStreamingTreeReadsTheBundledTableAsJacksonsMapperDoes() throws Exception {
    byte[] json;
    try (var in = PriceTable.class.getResourceAsStream("/dev/agentdesk/transcripts/cost/prices.json")) {
      json = in.readAllBytes();
    }
    assertThat(JsonTree.read(json)).isEqualTo(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json));
    byte[] mixed = "{\"a\": [1, 5000000000, 123456789012345678901234567890, 1.5e-3, true, false, null, \"x\"]}"
        .getBytes(StandardCharsets.UTF_8);
    assertThat(JsonTree.read(mixed)).isEqualTo(new com.fasterxml.jackson.databind.ObjectMapper().readTree(mixed));
  }

  @Test
  void aBadInstalledFileIsAWarningAndTheBundledTableStands(@TempDir Path dir) throws Exception {
    PriceFiles files = new PriceFiles(dir);
    Files.writeString(dir.resolve(PriceFiles.TABLE), "{\"providers\": [");
    Files.writeString(dir.resolve(PriceFiles.OVERRIDES), "{\"models\": {\"m\": {\"input_mtok\": \"cheap\"}}}");
    PriceFiles.Loaded loaded = files.load();
    assertThat(loaded.table().version()).isEqualTo("0.1.8");
    assertThat(loaded.warnings()).hasSize(2);
    assertThat(loaded.warnings().get(0)).startsWith("ignoring the price table " + dir.resolve(PriceFiles.TABLE));
    assertThat(loaded.warnings().get(1)).contains("input_mtok must be a number");

    Path update = dir.resolve("new.json");
    Files.writeString(update, "{\"version\": \"9\", \"published\": \"2027-01-01\", \"providers\": [{\"id\": \"x\","
        + " \"models\": [{\"id\": \"m\", \"prices\": {\"input_mtok\": 1, \"output_mtok\": 2}}]}]}");
    assertThat(files.install(update).version()).isEqualTo("9");
    assertThat(files.load().table().published()).isEqualTo("2027-01-01");
    Files.writeString(update, "[]");
    assertThatThrownBy(() -> files.install(update)).isInstanceOf(TranscriptException.class);
    assertThat(files.load().table().version()).isEqualTo("9"); // a refused update changes nothing
  }
}
