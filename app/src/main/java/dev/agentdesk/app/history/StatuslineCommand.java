package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.serve.DataDirs;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TokenFile;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.UsageBlock;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageQuery;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.cost.PriceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
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
        + " provider, the active 5-hour block (time left, burn rate).",
        "Reads Claude Code's JSON on stdin. Asks a running serve (--server), else reads the database (--db); a source"
            + " that is missing, locked or slow is skipped, never waited for.",
        "In ~/.claude/settings.json: {\"statusLine\": {\"type\": \"command\", \"command\": \"agentdesk statusline\"}}"})
public final class StatuslineCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Option(names = "--server", paramLabel = "URL",
      description = "The serve to ask first (default http://127.0.0.1:" + ServeConfig.DEFAULT_PORT + "/, with the token"
          + " file of 'agentdesk serve'); 'none' to read the database only")
  String server;

  @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "800",
      description = "The most time for the figures, server or database (default ${DEFAULT-VALUE})")
  long timeoutMs;

  @Option(names = "--timezone", paramLabel = "ZONE", description = "Time zone of 'today' (default the machine's)")
  String timezone;

  @Option(names = "--now", hidden = true, paramLabel = "INSTANT", description = "The time of 'today' and the block (tests)")
  String now;

  /** Claude Code's input: what the line needs of it. */
  record Input(String sessionId, String model, Double claudeCostUsd) {
    static Input read(InputStream in) {
      try {
        byte[] bytes = in.readNBytes(1 << 20);
        JsonNode j = bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
        String model = j.path("model").path("display_name").asText(j.path("model").path("id").asText(""));
        JsonNode cost = j.path("cost").path("total_cost_usd");
        return new Input(j.path("session_id").asText(null), model, cost.isNumber() ? cost.asDouble() : null);
      } catch (IOException | RuntimeException e) {
        return new Input(null, "", null);
      }
    }
  }

  /** The figures of the line; null where unknown. */
  record Figures(Double sessionUsd, Double todayUsd, Long blockRemainingMinutes, Double blockUsdPerHour,
      Double blockTokensPerMinute) {}

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Input input = Input.read(System.in);
    Figures f = null;
    try {
      Instant at = now == null ? Instant.now() : Instant.parse(now);
      ZoneId zone = timezone == null ? ZoneId.systemDefault() : UsageQuery.parseZone(timezone);
      CompletableFuture<Figures> task = CompletableFuture.supplyAsync(() -> figures(input, at, zone));
      try {
        f = task.get(Math.max(50, timeoutMs), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException late) {
        // too late for this line: a fallback not begun yet must not open the database after we answered
        gaveUp = true;
      }
    } catch (Exception | LinkageError e) {
      // a source missing, locked, busy or slow: the line shows what Claude Code sent
    }
    out.println(line(input, f));
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
    return parts.isEmpty() ? "agentdesk" : String.join(" | ", parts);
  }

  private Figures figures(Input input, Instant at, ZoneId zone) {
    if (!"none".equals(server)) {
      try {
        Figures fromServer = fromServer(input, at, zone);
        if (fromServer != null) {
          return fromServer;
        }
      } catch (Exception e) {
        // no serve, or it refused: the database next
      }
    }
    return gaveUp ? null : fromDatabase(input, at, zone);
  }

  /** Set when the line was written without the figures: the task then leaves the database alone. */
  private volatile boolean gaveUp;

  private Figures fromServer(Input input, Instant at, ZoneId zone) throws Exception {
    URI base = URI.create(server != null ? (server.endsWith("/") ? server : server + "/")
        : "http://127.0.0.1:" + ServeConfig.DEFAULT_PORT + "/");
    String token = null;
    Path tokenFile = TokenFile.defaultPath(System.getenv(), DataDirs.home());
    if (Files.isRegularFile(tokenFile)) {
      token = TokenFile.read(tokenFile);
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(Math.max(50, timeoutMs / 3))).build();
    String tz = "&timezone=" + URLEncoder.encode(zone.getId(), StandardCharsets.UTF_8);
    LocalDate today = at.atZone(zone).toLocalDate();
    // agentdesk's own figures (mode=calculate), as from the database
    JsonNode day = get(http, base, token, "api/history/usage?mode=calculate&by=day&since=" + today + "&until=" + today
        + tz);
    if (day == null) {
      return null;
    }
    Double session = null;
    if (input.sessionId() != null) {
      JsonNode s = get(http, base, token, "api/history/usage?mode=calculate&by=session&session="
          + URLEncoder.encode(input.sessionId(), StandardCharsets.UTF_8));
      session = s == null || s.path("total").path("responses").asLong() == 0 ? null
          : number(s.path("total").path("cost_usd"));
    }
    JsonNode blocks = get(http, base, token, "api/history/usage?mode=calculate&by=block&since=" + today.minusDays(1)
        + tz);
    Long remaining = null;
    Double usdPerHour = null;
    Double tokensPerMinute = null;
    if (blocks != null) {
      for (JsonNode b : blocks.path("blocks")) {
        if (b.path("active").asBoolean()) {
          remaining = b.path("remaining_minutes").asLong();
          usdPerHour = b.path("usd_per_hour").asDouble();
          tokensPerMinute = b.path("tokens_per_minute").asDouble();
        }
      }
    }
    return new Figures(session, number(day.path("total").path("cost_usd")), remaining, usdPerHour, tokensPerMinute);
  }

  private JsonNode get(HttpClient http, URI base, String token, String path) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMillis(timeoutMs)).GET();
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    return resp.statusCode() == 200 ? JSON.readTree(resp.body()) : null;
  }

  private Figures fromDatabase(Input input, Instant at, ZoneId zone) {
    DbOption.Target target = db.resolve();
    if (target.file() != null && !Files.isRegularFile(target.file())) {
      return null;
    }
    PriceFiles.Loaded prices = PriceFiles.fromEnvironment().load();
    LocalDate today = at.atZone(zone).toLocalDate();
    try (TranscriptHistory h = target.url() != null ? TranscriptHistory.openUrl(target.url())
        : TranscriptHistory.open(target.file())) {
      UsageReport day = h.usageReport(UsageQuery.of(UsageGrouping.DAY).zone(zone).between(today, today), prices.table());
      Double session = null;
      if (input.sessionId() != null) {
        try {
          UsageReport s = h.usageReport(UsageQuery.of(UsageGrouping.SESSION).session(input.sessionId()),
              prices.table());
          session = s.total().responses() == 0 || !s.total().hasCost() ? null : s.total().costUsd();
        } catch (RuntimeException notImported) {
          // the session is not in the history yet: Claude Code's own figure stands
        }
      }
      UsageReport blocks = h.usageReport(UsageQuery.of(UsageGrouping.BLOCK).zone(zone)
          .between(today.minusDays(1), null), prices.table());
      UsageBlock.Burn burn = blocks.activeBlock(at).map(b -> b.burn(at)).orElse(null);
      return new Figures(session, day.total().responses() == 0 || day.total().hasCost() ? day.total().costUsd() : null,
          burn == null ? null : burn.remaining().toMinutes(), burn == null ? null : burn.usdPerHour(),
          burn == null ? null : burn.tokensPerMinute());
    }
  }

  private static Double number(JsonNode n) {
    return n.isNumber() ? n.asDouble() : null;
  }
}
