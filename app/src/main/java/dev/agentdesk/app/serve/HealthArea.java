package dev.agentdesk.app.serve;

import io.javalin.config.RoutesConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** {@code GET /api/health}: liveness, version, and which parts of the API this build serves. */
final class HealthArea implements ApiArea {
  /** The health document. */
  record Health(String status, String version, long uptime_s, String bind, boolean token_required,
      Map<String, Boolean> features, Object notifications) {}

  private final Instant started = Instant.now();
  private final ServeConfig config;
  private final Supplier<Map<String, Boolean>> features;
  /** Notification delivery counters (pending, delivered, failed attempts, dropped), or null. */
  private final Supplier<Object> notifications;

  HealthArea(ServeConfig config, Supplier<Map<String, Boolean>> features, Supplier<Object> notifications) {
    this.config = config;
    this.features = features;
    this.notifications = notifications;
  }

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/health", ctx -> ctx.json(new Health("ok", dev.agentdesk.app.AppVersion.current(),
        Duration.between(started, Instant.now()).toSeconds(), config.bind(),
        config.token().isPresent(), new LinkedHashMap<>(features.get()), notifications.get())));
  }
}
