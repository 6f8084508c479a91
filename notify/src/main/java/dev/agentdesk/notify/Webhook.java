package dev.agentdesk.notify;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;

/**
 * One {@code --webhook} target.
 *
 * @param url where the notification is POSTed (for ntfy: the topic URL)
 * @param format how the body is shaped
 */
public record Webhook(URI url, WebhookFormat format) {
  public Webhook {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(format, "format");
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
      throw new NotifyException(NotifyException.Reason.BAD_WEBHOOK, "a webhook is an http:// or https:// URL with a"
          + " host, got '" + url + "'");
    }
    if (format == WebhookFormat.NTFY && topic(url).isEmpty()) {
      throw new NotifyException(NotifyException.Reason.BAD_WEBHOOK, "an ntfy webhook is the topic's URL, e.g."
          + " https://ntfy.sh/mytopic; '" + url + "' names no topic");
    }
  }

  /** Parses {@code url}; a typed error says what is wrong with it. */
  public static Webhook parse(String url, WebhookFormat format) {
    try {
      return new Webhook(new URI(url == null ? "" : url.trim()), format);
    } catch (URISyntaxException e) {
      throw new NotifyException(NotifyException.Reason.BAD_WEBHOOK, "not a URL: '" + url + "' (" + e.getReason() + ")");
    }
  }

  /** Where the POST goes: the URL itself, or for ntfy the server root (the topic goes in the body). */
  URI target() {
    if (format != WebhookFormat.NTFY) {
      return url;
    }
    String path = url.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    String parent = path.substring(0, path.lastIndexOf('/') + 1);
    return url.resolve(parent.isEmpty() ? "/" : parent);
  }

  String topic() {
    return topic(url);
  }

  private static String topic(URI url) {
    String path = url.getPath() == null ? "" : url.getPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** The URL without user info or query (which may carry secrets), for logs and the API. */
  public String redacted() {
    return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
        + (url.getPath() == null ? "" : url.getPath());
  }
}
