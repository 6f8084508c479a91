package dev.agentdesk.notify;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** POSTs one webhook's body; a non-2xx answer is a failure with its status. */
final class WebhookSender implements Sender {
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  private final Webhook hook;
  private final HttpClient http;

  WebhookSender(Webhook hook, HttpClient http) {
    this.hook = hook;
    this.http = http;
  }

  @Override
  public String name() {
    return "webhook " + hook.redacted();
  }

  @Override
  public void send(Notification n) throws Failure {
    HttpRequest req = HttpRequest.newBuilder(hook.target())
        .timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .header("User-Agent", "agentdesk")
        .POST(HttpRequest.BodyPublishers.ofByteArray(hook.format().body(n, hook.topic())))
        .build();
    HttpResponse<String> r;
    try {
      r = http.send(req, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new Failure("POST failed: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure("interrupted", true);
    }
    int status = r.statusCode();
    if (status / 100 != 2) {
      String body = r.body() == null ? "" : r.body().strip();
      boolean permanent = status / 100 == 4 && status != 408 && status != 429;
      throw new Failure("HTTP " + status + (body.isEmpty() ? "" : " " + (body.length() > 200 ? body.substring(0, 200) + "…" : body)),
          permanent);
    }
  }
}
