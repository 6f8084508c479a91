package dev.agentdesk.bench.history;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Writes a large synthetic corpus in the real on-disk formats: Claude Code
 * {@code claude/projects/<slug>/<uuid>.jsonl} (assistant responses split over several lines that
 * share message id, request id and usage; a tenth of them with a larger output count on the last
 * line, as streaming writes them) and Codex {@code codex/sessions/YYYY/MM/DD/rollout-*.jsonl}
 * (event and response copies of each message, encrypted reasoning, function calls, token counts).
 * One Claude session, {@link #BIG_SESSION}, has about 20,000 records.
 *
 * <p>Usage: {@code CorpusGenerator OUT_DIR SIZE_MB [SEED]}.
 */
public final class CorpusGenerator {
  /** The session with about 20k records used by the detail benchmark. */
  public static final String BIG_SESSION = "b16b16b1-0000-4000-8000-000000000000";
  private static final DateTimeFormatter TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final String[] MODELS = {"claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805",
      "claude-haiku-4-5-20251001"};

  private final SplittableRandom rnd;
  private final String[] vocab;
  private long clock = Instant.parse("2025-12-01T08:00:00Z").toEpochMilli();
  private long claudeBytes;
  private long codexBytes;
  private long messages;

  CorpusGenerator(long seed) {
    rnd = new SplittableRandom(seed);
    vocab = vocabulary(new SplittableRandom(seed ^ 0x5eed), 6000);
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: CorpusGenerator OUT_DIR SIZE_MB [SEED]");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    long target = Long.parseLong(args[1]) * 1_000_000L;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
    CorpusGenerator g = new CorpusGenerator(seed);
    g.generate(out, target);
    System.out.printf(Locale.ROOT, "{\"claude_bytes\":%d,\"codex_bytes\":%d,\"messages\":%d,\"big_session\":\"%s\"}%n",
        g.claudeBytes, g.codexBytes, g.messages, BIG_SESSION);
  }

  void generate(Path out, long targetBytes) throws IOException {
    Path claude = out.resolve("claude/projects");
    Path codex = out.resolve("codex/sessions");
    claudeBytes += claudeSession(claude.resolve("-home-bench-big"), BIG_SESSION, 2600);
    int n = 0;
    while (claudeBytes + codexBytes < targetBytes) {
      n++;
      int turns = 8 + rnd.nextInt(rnd.nextInt(10) == 0 ? 600 : 120);
      if (codexBytes * 7 < claudeBytes * 3) {
        codexBytes += codexSession(codex, turns);
      } else {
        String slug = "-home-bench-proj" + rnd.nextInt(40);
        claudeBytes += claudeSession(claude.resolve(slug), uuid().toString(), turns);
      }
    }
  }

  /** Appends {@code turns} more turns (user, split assistant response, tool result, answer) to a Claude session. */
  long appendClaudeTurns(Path file, String session, int turns) throws IOException {
    Path tmp = Files.createTempDirectory("append");
    try {
      Path part = tmp.resolve("p");
      long n = claudeSession(part, session, turns);
      byte[] bytes = Files.readAllBytes(part.resolve(session + ".jsonl"));
      Files.write(file, bytes, java.nio.file.StandardOpenOption.APPEND);
      return n;
    } finally {
      try (var s = Files.walk(tmp)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private UUID uuid() {
    return new UUID(rnd.nextLong(), rnd.nextLong());
  }

  private String ts() {
    clock += 500 + rnd.nextInt(20_000);
    return TS.format(Instant.ofEpochMilli(clock));
  }

  // ---- Claude Code ------------------------------------------------------------------------

  private long claudeSession(Path dir, String session, int turns) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(session + ".jsonl");
    String cwd = "/home/bench/" + dir.getFileName().toString().replace("-home-bench-", "");
    String head = "\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"" + cwd + "\",\"sessionId\":\"" + session
        + "\",\"version\":\"2.1.3\",\"gitBranch\":\"main\"";
    String model = MODELS[rnd.nextInt(MODELS.length)];
    String parent = null;
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int t = 0; t < turns; t++) {
        String u = uuid().toString();
        w.write("{\"parentUuid\":" + q(parent) + "," + head + ",\"type\":\"user\",\"message\":{\"role\":\"user\","
            + "\"content\":" + q(words(4 + rnd.nextInt(30))) + "},\"uuid\":\"" + u + "\",\"timestamp\":\"" + ts()
            + "\"}\n");
        messages++;
        parent = u;
        int steps = 1 + rnd.nextInt(3);
        for (int s = 0; s < steps; s++) {
          String msgId = "msg_" + Long.toHexString(rnd.nextLong());
          String req = "req_" + Long.toHexString(rnd.nextLong());
          long in = 3 + rnd.nextInt(400);
          long out = 20 + rnd.nextInt(900);
          long cr = rnd.nextInt(90_000);
          long cc = rnd.nextInt(4_000);
          boolean grows = rnd.nextInt(10) == 0;
          String usage = usage(in, grows ? 1 + rnd.nextInt(10) : out, cr, cc);
          String a1 = uuid().toString();
          w.write("{\"parentUuid\":\"" + parent + "\"," + head + ",\"message\":{\"id\":\"" + msgId + "\",\"type\":"
              + "\"message\",\"role\":\"assistant\",\"model\":\"" + model + "\",\"content\":[{\"type\":\"text\","
              + "\"text\":" + q(words(6 + rnd.nextInt(60))) + "}],\"stop_reason\":null,\"usage\":" + usage
              + "},\"requestId\":\"" + req + "\",\"type\":\"assistant\",\"uuid\":\"" + a1 + "\",\"timestamp\":\""
              + ts() + "\"}\n");
          messages++;
          String a2 = uuid().toString();
          String tool = "toolu_" + Long.toHexString(rnd.nextLong());
          String last = grows ? usage(in, out, cr, cc) : usage;
          w.write("{\"parentUuid\":\"" + a1 + "\"," + head + ",\"message\":{\"id\":\"" + msgId + "\",\"type\":"
              + "\"message\",\"role\":\"assistant\",\"model\":\"" + model + "\",\"content\":[" + toolUse(tool)
              + "],\"stop_reason\":\"tool_use\",\"usage\":" + last + "},\"requestId\":\"" + req
              + "\",\"type\":\"assistant\",\"uuid\":\"" + a2 + "\",\"timestamp\":\"" + ts() + "\"}\n");
          String r = uuid().toString();
          w.write("{\"parentUuid\":\"" + a2 + "\"," + head + ",\"type\":\"user\",\"message\":{\"role\":\"user\","
              + "\"content\":[{\"tool_use_id\":\"" + tool + "\",\"type\":\"tool_result\",\"content\":"
              + q(words(5 + rnd.nextInt(rnd.nextInt(8) == 0 ? 400 : 40))) + ",\"is_error\":" + (rnd.nextInt(20) == 0)
              + "}]},\"uuid\":\"" + r + "\",\"timestamp\":\"" + ts() + "\"}\n");
          parent = r;
        }
        String fin = uuid().toString();
        w.write("{\"parentUuid\":\"" + parent + "\"," + head + ",\"message\":{\"id\":\"msg_" + Long.toHexString(
            rnd.nextLong()) + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + model
            + "\",\"content\":[{\"type\":\"text\",\"text\":" + q(words(4 + rnd.nextInt(40))) + "}],\"stop_reason\":"
            + "\"end_turn\",\"usage\":" + usage(5 + rnd.nextInt(50), 10 + rnd.nextInt(300), rnd.nextInt(90_000), 0)
            + "},\"requestId\":\"req_" + Long.toHexString(rnd.nextLong()) + "\",\"type\":\"assistant\",\"uuid\":\""
            + fin + "\",\"timestamp\":\"" + ts() + "\"}\n");
        messages++;
        parent = fin;
      }
      w.write("{\"type\":\"ai-title\",\"sessionId\":\"" + session + "\",\"aiTitle\":" + q(words(5)) + "}\n");
    }
    return Files.size(file);
  }

  private String toolUse(String id) {
    return switch (rnd.nextInt(4)) {
      case 0 -> "{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"Bash\",\"input\":{\"command\":"
          + q("grep -rn " + word() + " src/" + word()) + ",\"description\":" + q(words(6)) + "}}";
      case 1 -> "{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"Read\",\"input\":{\"file_path\":"
          + q("/home/bench/src/" + word() + "/" + word() + ".java") + "}}";
      case 2 -> "{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"Edit\",\"input\":{\"file_path\":"
          + q("/home/bench/src/" + word() + ".java") + ",\"old_string\":" + q(words(12)) + ",\"new_string\":"
          + q(words(14)) + "}}";
      default -> "{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"Grep\",\"input\":{\"pattern\":"
          + q(word()) + ",\"output_mode\":\"content\"}}";
    };
  }

  private static String usage(long in, long out, long cr, long cc) {
    return "{\"input_tokens\":" + in + ",\"cache_creation_input_tokens\":" + cc + ",\"cache_read_input_tokens\":" + cr
        + ",\"output_tokens\":" + out + ",\"service_tier\":\"standard\"}";
  }

  // ---- Codex ------------------------------------------------------------------------------

  private long codexSession(Path root, int turns) throws IOException {
    String start = ts();
    String day = start.substring(0, 10).replace('-', '/');
    Path dir = Files.createDirectories(root.resolve(day));
    String id = uuid().toString();
    Path file = dir.resolve("rollout-" + start.substring(0, 19).replace(':', '-') + "-" + id + ".jsonl");
    String cwd = "/home/bench/svc" + rnd.nextInt(20);
    long totalIn = 0;
    long totalCached = 0;
    long totalOut = 0;
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(env(start, "session_meta", "{\"id\":\"" + id + "\",\"timestamp\":\"" + start + "\",\"cwd\":\"" + cwd
          + "\",\"originator\":\"codex_cli_rs\",\"cli_version\":\"0.130.0\",\"source\":\"cli\",\"model_provider\":"
          + "\"openai\",\"git\":{\"branch\":\"main\"}}"));
      w.write(env(ts(), "response_item", "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":"
          + "\"input_text\",\"text\":\"<environment_context>\\n  <cwd>" + cwd + "</cwd>\\n</environment_context>\"}]}"));
      for (int t = 0; t < turns; t++) {
        w.write(env(ts(), "turn_context", "{\"cwd\":\"" + cwd + "\",\"model\":\"gpt-5.2-codex\"}"));
        String prompt = q(words(4 + rnd.nextInt(30)));
        String ts = ts();
        w.write(env(ts, "event_msg", "{\"type\":\"user_message\",\"message\":" + prompt + ",\"images\":[]}"));
        w.write(env(ts, "response_item", "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":"
            + "\"input_text\",\"text\":" + prompt + "}]}"));
        messages++;
        w.write(env(ts(), "response_item", "{\"type\":\"reasoning\",\"summary\":[],\"content\":null,"
            + "\"encrypted_content\":\"gAAAA" + Long.toHexString(rnd.nextLong()) + Long.toHexString(rnd.nextLong())
            + "\"}"));
        String call = "call_" + Long.toHexString(rnd.nextLong());
        w.write(env(ts(), "response_item", "{\"type\":\"function_call\",\"name\":\"exec_command\",\"arguments\":"
            + q("{\"cmd\":\"rg " + word() + " " + word() + "\",\"workdir\":\"" + cwd + "\"}") + ",\"call_id\":\""
            + call + "\"}"));
        w.write(env(ts(), "response_item", "{\"type\":\"function_call_output\",\"call_id\":\"" + call
            + "\",\"output\":" + q(words(5 + rnd.nextInt(80))) + "}"));
        String answer = q(words(6 + rnd.nextInt(60)));
        ts = ts();
        w.write(env(ts, "event_msg", "{\"type\":\"agent_message\",\"message\":" + answer + "}"));
        w.write(env(ts, "response_item", "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":"
            + "\"output_text\",\"text\":" + answer + "}]}"));
        messages++;
        long in = 2000 + rnd.nextInt(30_000);
        long cached = in * rnd.nextInt(90) / 100;
        long out = 50 + rnd.nextInt(2000);
        totalIn += in;
        totalCached += cached;
        totalOut += out;
        w.write(env(ts(), "event_msg", "{\"type\":\"token_count\",\"info\":{\"total_token_usage\":"
            + codexUsage(totalIn, totalCached, totalOut) + ",\"last_token_usage\":" + codexUsage(in, cached, out)
            + ",\"model_context_window\":272000}}"));
      }
    }
    return Files.size(file);
  }

  private static String codexUsage(long in, long cached, long out) {
    return "{\"input_tokens\":" + in + ",\"cached_input_tokens\":" + cached + ",\"output_tokens\":" + out
        + ",\"reasoning_output_tokens\":" + out / 3 + ",\"total_tokens\":" + (in + out) + "}";
  }

  private static String env(String ts, String type, String payload) {
    return "{\"timestamp\":\"" + ts + "\",\"type\":\"" + type + "\",\"payload\":" + payload + "}\n";
  }

  // ---- text -------------------------------------------------------------------------------

  private String word() {
    // roughly Zipf: small indexes are much more frequent
    double u = rnd.nextDouble();
    return vocab[(int) Math.min(vocab.length - 1, Math.floor(Math.pow(vocab.length, u)) - 1)];
  }

  private String words(int n) {
    StringBuilder sb = new StringBuilder(n * 7);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(i % 17 == 0 ? "\n" : " ");
      }
      sb.append(word());
    }
    return sb.toString();
  }

  /** A JSON string literal (the generated text needs only newline and quote escapes). */
  private static String q(String s) {
    if (s == null) {
      return "null";
    }
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  static String[] vocabulary(SplittableRandom r, int size) {
    String[] syll = {"ka", "lo", "mi", "ter", "an", "ble", "qu", "ix", "or", "sta", "pen", "dro", "vel", "un", "ce",
        "ri", "mon", "zu", "fa", "gel", "tor", "ish", "ad", "pol"};
    List<String> out = new ArrayList<>(size);
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (out.size() < size) {
      int n = 1 + r.nextInt(4);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < n; i++) {
        sb.append(syll[r.nextInt(syll.length)]);
      }
      if (seen.add(sb.toString())) {
        out.add(sb.toString());
      }
    }
    return out.toArray(new String[0]);
  }

  /** Words of middling frequency, for search queries. */
  static String[] queryWords(long seed, int count) {
    String[] v = vocabulary(new SplittableRandom(seed ^ 0x5eed), 6000);
    String[] q = new String[count];
    SplittableRandom r = new SplittableRandom(seed + 1);
    for (int i = 0; i < count; i++) {
      q[i] = v[20 + r.nextInt(2000)];
    }
    return q;
  }
}
