package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The whole path (OSC scan, VT engine, parser) on arbitrary bytes and arbitrary read boundaries. */
class StreamPropertiesTest {
  private static final byte[] STREAM = ("\u001b]9;4;1;20\u0007⏺ Working on it.\r\n"
      + "  ⎿  Claude usage limit reached. Your limit will reset at 3pm (UTC).\r\n"
      + "✽ Nucleating… (3m 50s · ↓ 7.8k tokens)\r\n"
      + "https://github.com/acme/widgets/pull/42\r\n"
      + "⏺ suggest: [ Run tests | Review diff ]\r\n"
      + "\u001b]777;notify;Claude Code;Claude is waiting for your input\u001b\\"
      + "Do you want to proceed?\r\n❯ 1. Yes\r\n  2. No\r\n\r\nEsc to cancel · Tab to amend\r\n"
      + "  ⎿  API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\r\n"
      + "You've used 85% of your weekly limit\r\n\u001b]9;4;0;\u0007").getBytes(StandardCharsets.UTF_8);

  private static List<String> run(byte[] data, List<Integer> cuts) {
    ParsingTerminal t = new ParsingTerminal(Agent.CLAUDE, 80, 24, new ManualClock(0));
    List<String> events = new ArrayList<>();
    int prev = 0;
    for (int c : cuts.stream().map(c -> Math.min(c, data.length)).sorted().distinct().toList()) {
      t.output(data, prev, c - prev).forEach(e -> events.add(EventJson.toJson(e)));
      prev = c;
    }
    t.output(data, prev, data.length - prev).forEach(e -> events.add(EventJson.toJson(e)));
    return events;
  }

  @Property(tries = 200)
  void splittingTheSameStreamAnywhereYieldsTheSameEvents(
      @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 1200) Integer> cuts) {
    List<String> whole = run(STREAM, List.of());
    assertThat(whole).anyMatch(e -> e.contains("\"rate-limit\"")).anyMatch(e -> e.contains("\"choice-prompt\""))
        .anyMatch(e -> e.contains("\"suggest\"")).anyMatch(e -> e.contains("\"question\""));
    assertThat(run(STREAM, cuts)).isEqualTo(whole);
  }

  @Property(tries = 200)
  void randomBytesInRandomChunksNeverThrow(@ForAll("noise") byte[] data, @ForAll @IntRange(min = 1, max = 512) int chunk) {
    ManualClock clock = new ManualClock(0);
    ParsingTerminal t = new ParsingTerminal(Agent.CLAUDE, 40, 12, clock);
    for (int i = 0; i < data.length; i += chunk) {
      t.output(data, i, Math.min(chunk, data.length - i));
      t.input(data, i, Math.min(3, data.length - i));
      clock.advanceBy(700);
      t.tick();
    }
    clock.advanceBy(60_000);
    t.tick();
  }

  @Provide
  Arbitrary<byte[]> noise() {
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
    Arbitrary<byte[]> shaped = Arbitraries.of("\u001b]", "\u0007", "\u001b\\", "\u001b[", "?", "\r\n", "1. ", "❯ ", "suggest: [",
            " | ", "]", "9;4;", "777;notify;x;", "is waiting for your input", "429", "⏺ ", "…", "(", ")", "\u001b[2J", "\u001b[?1049h")
        .list().ofMaxSize(300).map(parts -> String.join("", parts).getBytes(StandardCharsets.UTF_8));
    return Arbitraries.oneOf(random, shaped);
  }
}
