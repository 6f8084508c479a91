package dev.agentdesk.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The URL an {@code agentdesk runtime} child prints once it listens, read from its standard output. */
public final class RuntimeListening {
  private static final Pattern LISTENING = Pattern.compile("listening on (ws://\\S+/)");

  private RuntimeListening() {}

  /** The runtime's URL, or null when it exits, prints something else or takes longer than {@code timeout}. */
  public static URI await(Process runtime, Duration timeout) {
    CompletableFuture<String> found = CompletableFuture.supplyAsync(() -> {
      try {
        BufferedReader r = new BufferedReader(new InputStreamReader(runtime.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = r.readLine()) != null; ) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            return m.group(1);
          }
        }
        return null;
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String url = found.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return url == null ? null : URI.create(url);
    } catch (Exception e) {
      return null;
    }
  }
}
