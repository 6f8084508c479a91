package dev.agentdesk.app.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.agentdesk.app.serve.DataDirs;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TokenFile;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.UsageBlock;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageLimit;
import dev.agentdesk.transcripts.UsageQuery;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.cost.PriceFiles;
import dev.agentdesk.transcripts.cost.PriceTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agentdesk statusline}: one line for Claude Code's {@code statusLine} setting. It reads the
 * JSON Claude Code sends on stdin (session_id, model, workspace, cost …) and prints this session's
 * cost, today's cost over every provider and the active 5-hour block. Figures come from a running
 * serve, else from the database; every source has a deadline, and whatever fails is left out of
 * the line: the command never hangs, never prints a stack trace and always exits 0.
 */
@Command(name = "statusline", mixinStandardHelpOptions = true,
    description = {"One status line for Claude Code's statusLine setting: this session's cost, today's cost over every"
        + " provider, the active 5-hour block (time left, burn rate) and the known usage window that resets next.",
        "Reads Claude Code's JSON on stdin. Asks a running serve (--server), else reads the database (--db); a source"
            + " that is missing, locked or slow is skipped, never waited for.",
        "In ~/.claude/settings.json: {\"statusLine\": {\"type\": \"command\", \"command\": \"agentdesk statusline\"}}"})
public final class StatuslineCommand implements Callable<Integer> {
  private static final JsonFactory JSON = new JsonFactory();

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Option(names = "--server", paramLabel = "URL",
      description = "The serve to ask first (default http://127.0.0.1:" + ServeConfig.DEFAULT_PORT + "/, with the token"
          + " file of 'agentdesk serve'); 'none' to read the database only")
  String server;

  static final long DEFAULT_TIMEOUT_MS = 800;

  @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "" + DEFAULT_TIMEOUT_MS,
      description = "The most time for the figures, server or database (default ${DEFAULT-VALUE})")
  long timeoutMs = DEFAULT_TIMEOUT_MS;

  @Option(names = "--timezone", paramLabel = "ZONE", description = "Time zone of 'today' (default the machine's)")
  String timezone;

  @Option(names = "--now", hidden = true, paramLabel = "INSTANT", description = "The time of 'today' and the block (tests)")
  String now;

  /** Where the line goes when picocli did not build this command ({@link #plain}). */
  private PrintWriter plainOut;

  /** The options {@link #plain} reads itself; {@code StatuslineCommandTest} holds them equal to picocli's. */
  static final java.util.Set<String> PLAIN_OPTIONS =
      java.util.Set.of("--server", "--timeout-ms", "--timezone", "--now", "--db", "--db-url", "--db-url-file");

  /**
   * This command set from {@code args} (the words after {@code statusline}) without picocli, writing
   * to {@code out}; null when they are anything but the plain options, each once, as {@code --name
   * VALUE} or {@code --name=VALUE} (help, version, a typo or a bad value: picocli answers those as
   * for every command). picocli's start is ~100 ms, a third of a status line without a serve, and
   * Claude Code runs the line every few hundred milliseconds (ADR 0040).
   */
  public static StatuslineCommand plain(String[] args, PrintWriter out) {
    java.util.Map<String, String> options = dev.agentdesk.app.cli.PlainOptions.parse(args, PLAIN_OPTIONS,
        java.util.Set.of(), java.util.Map.of());
    if (options == null) {
      return null;
    }
    StatuslineCommand c = new StatuslineCommand();
    try {
      for (java.util.Map.Entry<String, String> o : options.entrySet()) {
        String value = o.getValue();
        switch (o.getKey()) {
          case "--server" -> c.server = value;
          case "--timeout-ms" -> c.timeoutMs = Long.parseLong(value);
          case "--timezone" -> c.timezone = value;
          case "--now" -> c.now = value;
          case "--db" -> c.db.db = Path.of(value);
          case "--db-url" -> c.db.url = value;
          default -> c.db.urlFile = Path.of(value);
        }
      }
    } catch (RuntimeException badValue) {
      return null;
    }
    c.plainOut = out;
    return c;
  }

  /** Claude Code's input: what the line needs of it. */
  record Input(String sessionId, String model, Double claudeCostUsd) {
    /**
     * What the line needs of Claude Code's JSON, read with the streaming parser: an ObjectMapper's
     * start is ~60 ms of a status line without a serve (ADR 0040). Text where the value is a string,
     * number or boolean; the last of repeated keys wins; anything else, or JSON that is not an
     * object, reads as unknown.
     */
    static Input parse(byte[] bytes) {
      String sessionId = null;
      String displayName = null;
      String id = null;
      Double cost = null;
      try (JsonParser p = JSON.createParser(bytes)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return new Input(null, "", null);
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken value = p.nextToken();
          if (field.equals("session_id")) {
            sessionId = scalarText(p, value);
            p.skipChildren();
          } else if (value == JsonToken.START_OBJECT && (field.equals("model") || field.equals("cost"))) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String inner = p.currentName();
              JsonToken v = p.nextToken();
              if (field.equals("model") && inner.equals("display_name")) {
                displayName = scalarText(p, v);
              } else if (field.equals("model") && inner.equals("id")) {
                id = scalarText(p, v);
              } else if (field.equals("cost") && inner.equals("total_cost_usd")) {
                cost = v.isNumeric() ? p.getDoubleValue() : null;
              }
              p.skipChildren();
            }
          } else {
            p.skipChildren();
          }
        }
        String model = displayName != null ? displayName : id != null ? id : "";
        return new Input(sessionId, model, cost);
      } catch (IOException | RuntimeException e) {
        return new Input(null, "", null);
      }
    }

    private static String scalarText(JsonParser p, JsonToken value) throws IOException {
      return value.isScalarValue() && value != JsonToken.VALUE_NULL ? p.getText() : null;
    }
  }

  /** The figures of the line; null where unknown. */
  record Figures(Double sessionUsd, Double todayUsd, Long blockRemainingMinutes, Double blockUsdPerHour,
      Double blockTokensPerMinute, UsageLimit nearestLimit, Instant at) {}

  @Override
  public Integer call() {
    PrintWriter out = plainOut != null ? plainOut : spec.commandLine().getOut();
    byte[] raw;
    try {
      raw = System.in.readNBytes(1 << 20);
    } catch (IOException e) {
      raw = new byte[0];
    }
    Input input = Input.parse(raw);
    String text = null;
    try {
      Instant at = now == null ? Instant.now() : Instant.parse(now);
      ZoneId zone = timezone == null ? ZoneId.systemDefault() : UsageQuery.parseZone(timezone);
      byte[] body = raw;
      CompletableFuture<String> task = CompletableFuture.supplyAsync(() -> answer(body, input, at, zone));
      try {
        text = task.get(Math.max(50, timeoutMs), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException late) {
        // too late for this line: a fallback not begun yet must not open the database after we answered
        gaveUp = true;
      }
    } catch (Exception | LinkageError e) {
      // a source missing, locked, busy or slow: the line shows what Claude Code sent
    }
    out.println(text != null ? text : line(input, null));
    out.flush();
    // a database read still waiting on a lock must not keep the process
    System.out.flush();
    return 0;
  }

  static String line(Input input, Figures f) {
    List<String> parts = new ArrayList<>();
    if (!input.model().isEmpty()) {
      parts.add(input.model());
    }
    Double session = f != null && f.sessionUsd() != null ? f.sessionUsd() : input.claudeCostUsd();
    if (session != null) {
      parts.add("session " + Costs.usd(session));
    }
    if (f != null && f.todayUsd() != null) {
      parts.add("today " + Costs.usd(f.todayUsd()));
    }
    if (f != null && f.blockRemainingMinutes() != null) {
      parts.add(String.format(Locale.ROOT, "block %dh%02dm left, %s/h, %,.0f tok/min", f.blockRemainingMinutes() / 60,
          f.blockRemainingMinutes() % 60, Costs.usd(f.blockUsdPerHour()), f.blockTokensPerMinute()));
    }
    if (f != null && f.nearestLimit() != null) {
      UsageLimit l = f.nearestLimit();
      long minutes = Math.max(1, (l.untilReset(f.at()).toSeconds() + 59) / 60);
      parts.add(String.format(Locale.ROOT, "%s %s%s resets in %dh%02dm", l.provider(), l.window(),
          l.usedPercent() == null ? "" : String.format(Locale.ROOT, " %.0f%%", l.usedPercent()), minutes / 60,
          minutes % 60));
    }
    return parts.isEmpty() ? "agentdesk" : String.join(" | ", parts);
  }

  private String answer(byte[] raw, Input input, Instant at, ZoneId zone) {
    if (!"none".equals(server)) {
      try {
        String fromServer = fromServer(raw, zone);
        if (fromServer != null) {
          return fromServer;
        }
      } catch (Exception e) {
        // no serve, or it refused: the database next
      }
    }
    return gaveUp ? null : line(input, fromDatabase(input, at, zone));
  }

  /** Set when the line was written without the figures: the task then leaves the database alone. */
  private volatile boolean gaveUp;

  /** The serve's line ({@code POST /api/history/statusline} with Claude Code's JSON), or null. */
  private String fromServer(byte[] raw, ZoneId zone) throws Exception {
    URI base = URI.create(server != null ? (server.endsWith("/") ? server : server + "/")
        : "http://127.0.0.1:" + ServeConfig.DEFAULT_PORT + "/");
    int connectMs = (int) Math.max(50, timeoutMs / 3);
    // A plain connect first: with no serve listening (the usual case without one) it is refused at
    // once, and the HTTP client's classes and threads, a good part of the start-up, are never loaded.
    try (Socket probe = new Socket()) {
      probe.connect(new InetSocketAddress(base.getHost(), base.getPort() < 0 ? 80 : base.getPort()), connectMs);
    }
    String token = null;
    Path tokenFile = TokenFile.defaultPath(System.getenv(), DataDirs.home());
    if (Files.isRegularFile(tokenFile)) {
      token = TokenFile.read(tokenFile);
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(connectMs)).build();
    HttpRequest.Builder r = HttpRequest.newBuilder(base.resolve("api/history/statusline?timezone="
            + URLEncoder.encode(zone.getId(), StandardCharsets.UTF_8)
            + (now == null ? "" : "&now=" + URLEncoder.encode(now, StandardCharsets.UTF_8))))
        .timeout(Duration.ofMillis(timeoutMs)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(raw));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    String text = resp.body().strip();
    return resp.statusCode() == 200 && !text.isEmpty() && text.indexOf('\n') < 0 ? text : null;
  }

  private Figures fromDatabase(Input input, Instant at, ZoneId zone) {
    DbOption.Target target = db.resolve();
    if (target.file() != null && !Files.isRegularFile(target.file())) {
      return null;
    }
    Costs.Aside prices = new Costs.Aside(() -> PriceFiles.fromEnvironment().load(), "statusline-prices");
    try (TranscriptHistory h = target.url() != null ? TranscriptHistory.openUrl(target.url())
        : TranscriptHistory.open(target.file())) {
      return fromHistory(h, prices.get().table(), input, at, zone);
    }
  }

  /**
   * The line for Claude Code's statusLine JSON {@code claudeJson}, from an open history: what a
   * running serve answers at {@code POST /api/history/statusline}, the same figures as the command's own.
   */
  public static String line(byte[] claudeJson, TranscriptHistory h, PriceTable table, Instant at, ZoneId zone) {
    Input input = Input.parse(claudeJson);
    return line(input, fromHistory(h, table, input, at, zone));
  }

  static Figures fromHistory(TranscriptHistory h, PriceTable table, Input input, Instant at, ZoneId zone) {
    LocalDate today = at.atZone(zone).toLocalDate();
    UsageReport day = h.usageReport(UsageQuery.of(UsageGrouping.DAY).zone(zone).between(today, today), table);
    Double session = null;
    if (input.sessionId() != null) {
      try {
        UsageReport s = h.usageReport(UsageQuery.of(UsageGrouping.SESSION).session(input.sessionId()), table);
        session = s.total().responses() == 0 || !s.total().hasCost() ? null : s.total().costUsd();
      } catch (RuntimeException notImported) {
        // the session is not in the history yet: Claude Code's own figure stands
      }
    }
    UsageReport blocks = h.usageReport(UsageQuery.of(UsageGrouping.BLOCK).zone(zone)
        .between(today.minusDays(1), null), table);
    UsageBlock.Burn burn = blocks.activeBlock(at).map(b -> b.burn(at)).orElse(null);
    return new Figures(session, day.total().responses() == 0 || day.total().hasCost() ? day.total().costUsd() : null,
        burn == null ? null : burn.remaining().toMinutes(), burn == null ? null : burn.usdPerHour(),
        burn == null ? null : burn.tokensPerMinute(), nearestLimit(h.limits(), at), at);
  }

  /** The known usage window that resets next (of any provider), or null when none is known to reset later. */
  static UsageLimit nearestLimit(List<UsageLimit> limits, Instant at) {
    UsageLimit best = null;
    for (UsageLimit l : limits) {
      if (l.untilReset(at) != null && (best == null || l.resetsAt().isBefore(best.resetsAt()))) {
        best = l;
      }
    }
    return best;
  }
}
