package dev.agentdesk.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import dev.agentdesk.testkit.HttpReceiver;
import org.junit.jupiter.api.Test;

/** Webhooks against a real loopback HTTP receiver: each format's body, retries, drops and the bound. */
class WebhookDeliveryTest {
  private static SessionView question(String session, long turn) {
    return new SessionView(session, "#/agents/" + session, "claude · ui", "claude", true, "Which database should I use?",
        false, null, null, List.of(), false, null, turn);
  }

  private static SessionView idle(String session, long turn) {
    return new SessionView(session, "#/agents/" + session, "claude · ui", "claude", false, null, false, null, null,
        List.of(), false, null, turn);
  }

  private static JsonNode json(HttpReceiver.Request r) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + r.body(), e);
    }
  }

  private static Notifier notifier(List<Webhook> hooks, int attempts) {
    return webhooksOnly(Notifier.start(Notifier.Options.defaults().withWebhooks(hooks)
        .withRetries(attempts, Duration.ofMillis(50)).withBaseUrl(() -> "http://127.0.0.1:7420/"), n -> {}));
  }

  /** Every event to the webhooks only, so the counters count webhook deliveries alone. */
  private static Notifier webhooksOnly(Notifier n) {
    NotifySettings s = n.settings();
    for (EventKind k : EventKind.values()) {
      s = s.withRoute(k, java.util.Set.of(Channel.WEBHOOK));
    }
    n.updateSettings(s);
    return n;
  }

  @Test
  void jsonBodyCarriesTheSevenFields() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON)), 4)) {
      n.observe(question("ab12", 0));
      HttpReceiver.Request req = r.await(1);
      assertThat(req.method()).isEqualTo("POST");
      assertThat(req.path()).isEqualTo("/hook");
      assertThat(req.contentType()).isEqualTo("application/json");
      JsonNode b = json(req);
      assertThat(b.path("event").asText()).isEqualTo("awaiting_input");
      assertThat(b.path("session").asText()).isEqualTo("ab12");
      assertThat(b.path("agent").asText()).isEqualTo("claude");
      assertThat(b.path("title").asText()).isEqualTo("claude · ui needs you");
      assertThat(b.path("text").asText()).isEqualTo("Which database should I use?");
      assertThat(b.path("url").asText()).isEqualTo("http://127.0.0.1:7420/#/agents/ab12");
      assertThat(java.time.Instant.parse(b.path("at").asText())).isBeforeOrEqualTo(java.time.Instant.now());
      assertThat(b.size()).isEqualTo(7);
      Await.until("the delivery to count", () -> n.stats().delivered() == 1);
    }
  }

  @Test
  void ntfyPostsToTheServerRootWithTheTopicInTheBody() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/agentdesk-alerts"), WebhookFormat.NTFY)), 4)) {
      n.observe(question("ab12", 0));
      HttpReceiver.Request req = r.await(1);
      assertThat(req.path()).isEqualTo("/");
      JsonNode b = json(req);
      assertThat(b.path("topic").asText()).isEqualTo("agentdesk-alerts");
      assertThat(b.path("title").asText()).isEqualTo("claude · ui needs you");
      assertThat(b.path("message").asText()).isEqualTo("Which database should I use?");
      assertThat(b.path("click").asText()).isEqualTo("http://127.0.0.1:7420/#/agents/ab12");
      assertThat(b.path("priority").asInt()).isEqualTo(4);
      assertThat(b.path("tags").get(0).asText()).isEqualTo("question");
    }
  }

  @Test
  void slackGetsMrkdwnTextWithALink() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/services/T0/B0/x"), WebhookFormat.SLACK)), 4)) {
      n.observe(new SessionView("ab12", "#/agents/ab12", "claude · <ui>", "claude", true, "Use A & B?", false, null,
          null, List.of(), false, null, 0));
      JsonNode b = json(r.await(1));
      assertThat(b.path("text").asText()).isEqualTo(
          "*claude · &lt;ui&gt; needs you*\nUse A &amp; B?\n<http://127.0.0.1:7420/#/agents/ab12|Open in agentdesk>");
    }
  }

  @Test
  void discordGetsContentAndOneEmbed() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/api/webhooks/1/abc"), WebhookFormat.DISCORD)), 4)) {
      n.observe(question("ab12", 0));
      JsonNode b = json(r.await(1));
      assertThat(b.path("username").asText()).isEqualTo("agentdesk");
      assertThat(b.path("content").asText()).isEqualTo("claude · ui needs you");
      JsonNode e = b.path("embeds").get(0);
      assertThat(e.path("title").asText()).isEqualTo("claude · ui needs you");
      assertThat(e.path("description").asText()).isEqualTo("Which database should I use?");
      assertThat(e.path("url").asText()).isEqualTo("http://127.0.0.1:7420/#/agents/ab12");
      assertThat(e.path("timestamp").asText()).isNotBlank();
    }
  }

  @Test
  void aFailingWebhookIsRetriedWithBackoffAndCounted() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON)), 4)) {
      AtomicInteger calls = new AtomicInteger();
      r.status = () -> calls.incrementAndGet() <= 2 ? 503 : 200;
      n.observe(question("ab12", 0));
      r.await(3);
      Await.until("the third try to succeed", () -> n.stats().delivered() == 1);
      DeliveryStats s = n.stats();
      assertThat(s.failedAttempts()).isEqualTo(2);
      assertThat(s.dropped()).isZero();
      assertThat(s.pending()).isZero();
      assertThat(s.lastFailure()).contains("HTTP 503");
      assertThat(r.requests).hasSize(3);
    }
  }

  @Test
  void aWebhookThatKeepsFailingIsDroppedAfterTheLastTry() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON)), 3)) {
      r.status = () -> 500;
      n.observe(question("ab12", 0));
      Await.until("the drop", () -> n.stats().dropped() == 1);
      assertThat(r.requests).hasSize(3);
      assertThat(n.stats().failedAttempts()).isEqualTo(3);
      assertThat(n.stats().pending()).isZero();
      assertThat(n.stats().lastFailure()).startsWith("webhook " + r.url("/hook")).contains("HTTP 500");
    }
  }

  @Test
  void aClientErrorIsNotRetried() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = notifier(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON)), 4)) {
      r.status = () -> 404;
      n.observe(question("ab12", 0));
      Await.until("the drop", () -> n.stats().dropped() == 1);
      Thread.sleep(300); // a retry would have come by now (50 ms backoff)
      assertThat(r.requests).hasSize(1);
    }
  }

  @Test
  void observingNeverWaitsForAHungWebhookAndTheQueueIsBounded() throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = webhooksOnly(Notifier.start(Notifier.Options.defaults().withQueueCapacity(2)
            .withRetries(1, Duration.ZERO).withWebhooks(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON))),
            x -> {}))) {
      CountDownLatch hold = new CountDownLatch(1);
      r.hold = hold;
      // Each new turn's question is a new notification; the receiver answers none of them yet.
      for (int turn = 0; turn < 6; turn++) {
        n.observe(question("ab12", turn));
        n.observe(idle("ab12", turn + 1));
      }
      r.await(1);
      // Every observe returned while the first POST still hangs: nothing waited for delivery.
      assertThat(hold.getCount()).isEqualTo(1);
      DeliveryStats s = n.stats();
      assertThat(s.pending()).isEqualTo(2);
      assertThat(s.droppedQueueFull()).isEqualTo(4);
      hold.countDown();
      Await.until("the two queued to be delivered", () -> n.stats().delivered() == 2);
    }
  }

  @Test
  void onlyRoutedEventsReachTheWebhook() throws Exception {
    List<Notification> browser = new CopyOnWriteArrayList<>();
    try (HttpReceiver r = new HttpReceiver();
        Notifier n = Notifier.start(Notifier.Options.defaults()
            .withWebhooks(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON))), browser::add)) {
      n.updateSettings(n.settings().withRoute(EventKind.AWAITING_INPUT, java.util.Set.of(Channel.BROWSER)));
      n.observe(question("ab12", 0));
      Await.until("the browser notification", () -> browser.size() == 1);
      n.observe(new SessionView("ab12", "#/agents/ab12", "claude · ui", "claude", false, null, false, null, null,
          List.of("https://github.com/o/r/pull/7"), false, null, 1));
      assertThat(json(r.await(1)).path("event").asText()).isEqualTo("pr_opened");
      Thread.sleep(200);
      assertThat(r.requests).hasSize(1);
    }
  }

  @Test
  void badWebhooksAreTypedErrors() {
    assertThatThrownBy(() -> Webhook.parse("ftp://example.com/x", WebhookFormat.JSON))
        .isInstanceOf(NotifyException.class).hasMessageContaining("http:// or https://");
    assertThatThrownBy(() -> Webhook.parse("https://ntfy.sh/", WebhookFormat.NTFY))
        .isInstanceOf(NotifyException.class).hasMessageContaining("names no topic");
    assertThatThrownBy(() -> Webhook.parse("http://exa mple.com", WebhookFormat.JSON))
        .isInstanceOf(NotifyException.class).hasMessageContaining("not a URL");
    assertThatThrownBy(() -> WebhookFormat.named("teams"))
        .isInstanceOf(NotifyException.class).hasMessageContaining("ntfy, slack, discord or json");
    assertThat(Webhook.parse("https://user:pw@hooks.example.com/x?secret=1", WebhookFormat.JSON).redacted())
        .isEqualTo("https://hooks.example.com/x");
  }
}
