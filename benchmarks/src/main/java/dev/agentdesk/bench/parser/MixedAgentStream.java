package dev.agentdesk.bench.parser;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * A realistic mix of agent terminal output for the parser benchmarks: Claude-style synchronized
 * frame redraws (spinner + status line with truecolor SGR), chat prose, code blocks, diffs, tool
 * output, Codex working lines, OSC titles/progress/notifications, and the occasional rate limit,
 * API error, PR URL and choice prompt. When {@code ../shared} is beside the checkout, the real
 * captures of the corpus (Claude plan picker, gh run watch on the alternate screen) are mixed in.
 * Seeded, so every run measures the same bytes.
 */
final class MixedAgentStream {
  private static final String[] PROSE = {
      "I'll start by reading the authentication module to understand the token flow.",
      "The failing test expects a 404 but the handler returns 500 when the row is missing.",
      "Here is the plan: extract the validation, inline the helper, then update the tests.",
      "Done. The migration now runs in a single transaction and rolls back on failure.",
  };
  private static final String[] CODE = {
      "    public Optional<User> find(long id) {", "        return repo.findById(id).map(this::toDomain);", "    }",
      "fn parse(input: &str) -> Result<Config, Error> {", "    let v: Value = serde_json::from_str(input)?;",
  };
  private static final String[] SPINNER = {"✻", "✽", "✶", "✳", "✢", "·"};

  private MixedAgentStream() {}

  static byte[] build(int size, long seed) {
    Random rnd = new Random(seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream(size + 64 * 1024);
    byte[][] real = realCaptures();
    int frame = 0;
    while (out.size() < size) {
      int kind = rnd.nextInt(20);
      StringBuilder sb = new StringBuilder();
      if (kind < 6) {
        // One Claude frame: synchronized update, cursor up, spinner + status line, composer rule.
        sb.append("\u001b[?2026h\u001b[6A\r\u001b[38;2;215;119;87m").append(SPINNER[frame % SPINNER.length])
            .append("\u001b[39m \u001b[38;2;215;119;87mNucleating…\u001b[39m \u001b[38;2;153;153;153m(")
            .append(frame / 10).append("s · ↓ ").append(frame % 97).append(".").append(frame % 10)
            .append("k tokens · esc to interrupt)\u001b[39m\u001b[K\r\n\r\n\u001b[38;2;136;136;136m")
            .append("─".repeat(100)).append("\u001b[39m\r\n❯ \u001b[7m \u001b[27m\u001b[K\r\n")
            .append("─".repeat(100)).append("\r\n  ⏵⏵ accept edits on (shift+tab to cycle)\u001b[K\r\n\u001b[?2026l");
        frame++;
      } else if (kind < 10) {
        sb.append("\u001b[1m⏺\u001b[22m ").append(PROSE[rnd.nextInt(PROSE.length)]).append("\r\n");
      } else if (kind < 12) {
        sb.append("```java\r\n");
        for (String c : CODE) {
          sb.append("\u001b[38;5;").append(100 + rnd.nextInt(100)).append('m').append(c).append("\u001b[0m\r\n");
        }
        sb.append("```\r\n");
      } else if (kind < 14) {
        sb.append("\u001b[32m+    if (status == 429) retry(\"Rate limit exceeded\");\u001b[0m\r\n")
            .append("\u001b[31m-    throw new IllegalStateException();\u001b[0m\r\n  462 -        return Err(e)\r\n");
      } else if (kind < 16) {
        sb.append("• Working (").append(frame % 60).append("s • esc to interrupt)\r\n")
            .append("  └ tests/test_api.py::test_create PASSED\r\n  └ tests/test_api.py::test_delete PASSED\r\n");
      } else if (kind == 16) {
        sb.append("\u001b]0;✳ agent at work\u0007\u001b]9;4;1;").append(rnd.nextInt(101)).append("\u0007")
            .append("https://github.com/acme/widgets/pull/").append(1 + rnd.nextInt(999)).append("\r\n");
      } else if (kind == 17) {
        sb.append("  ⎿  API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\r\n")
            .append("  ⎿  You've used ").append(50 + rnd.nextInt(50)).append("% of your weekly limit\r\n");
      } else if (kind == 18) {
        sb.append("Do you want to proceed?\r\n❯ 1. Yes\r\n  2. Yes, and don't ask again\r\n  3. No (esc)\r\n\r\n")
            .append("Esc to cancel · Tab to amend\r\n\u001b]777;notify;Claude Code;Claude needs your permission to use Bash\u0007");
      } else if (real.length > 0) {
        byte[] r = real[rnd.nextInt(real.length)];
        out.write(r, 0, r.length);
        out.write("\u001b[?1049l\u001b[0m\r\n".getBytes(StandardCharsets.UTF_8), 0, 12);
        continue;
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
      out.write(b, 0, b.length);
    }
    byte[] all = out.toByteArray();
    byte[] exact = new byte[size];
    System.arraycopy(all, 0, exact, 0, size);
    return exact;
  }

  private static byte[][] realCaptures() {
    Path shared = Path.of("..", "shared", "corpus", "terminal");
    Path[] files = {shared.resolve("agent_prompts/claude-plan-picker.raw"), shared.resolve("alt_screen/gh-run-watch.raw")};
    try {
      if (!Files.isRegularFile(files[0]) || !Files.isRegularFile(files[1])) {
        return new byte[0][];
      }
      return new byte[][] {Files.readAllBytes(files[0]), Files.readAllBytes(files[1])};
    } catch (IOException e) {
      return new byte[0][];
    }
  }
}
