package dev.agentdesk.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * How a webhook's body is shaped. {@link #JSON} is agentdesk's own
 * {@code {event, session, agent, title, text, url, at}}; the others are what those services'
 * incoming webhooks take (docs/notifications.md lists the fields).
 */
public enum WebhookFormat {
  /** {@code {event, session, agent, title, text, url, at}}. */
  JSON,
  /**
   * ntfy's JSON publishing: POSTed to the server's root with the topic in the body. The webhook
   * URL is the topic URL ({@code https://ntfy.sh/mytopic}); its last path segment is the topic.
   */
  NTFY,
  /** Slack incoming webhook: {@code text} in mrkdwn with a link to the session. */
  SLACK,
  /** Discord execute-webhook: {@code content} plus one embed (title, description, url, timestamp). */
  DISCORD;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static WebhookFormat named(String code) {
    for (WebhookFormat f : values()) {
      if (f.code().equalsIgnoreCase(code == null ? "" : code.trim())) {
        return f;
      }
    }
    throw new NotifyException(NotifyException.Reason.BAD_WEBHOOK, "unknown webhook format '" + code
        + "'; use ntfy, slack, discord or json");
  }

  /** The body for {@code n}, as UTF-8 JSON. {@code topic} is the ntfy topic (ignored by the others). */
  byte[] body(Notification n, String topic) {
    ObjectNode o = MAPPER.createObjectNode();
    switch (this) {
      case JSON -> {
        o.put("event", n.event().code());
        o.put("session", n.session());
        o.put("agent", n.agent());
        o.put("title", n.title());
        o.put("text", n.text());
        o.put("url", n.url());
        o.put("at", n.at().toString());
      }
      case NTFY -> {
        o.put("topic", topic);
        o.put("title", n.title());
        o.put("message", n.text().isEmpty() ? n.title() : n.text());
        if (n.url() != null) {
          o.put("click", n.url());
        }
        o.putArray("tags").add(ntfyTag(n.event())).add("agentdesk");
        o.put("priority", n.event() == EventKind.AWAITING_INPUT || n.event() == EventKind.EXIT_ERROR ? 4 : 3);
      }
      case SLACK -> {
        StringBuilder sb = new StringBuilder("*").append(slackEscape(n.title())).append('*');
        if (!n.text().isEmpty()) {
          sb.append('\n').append(slackEscape(n.text()));
        }
        if (n.url() != null) {
          sb.append("\n<").append(n.url()).append("|Open in agentdesk>");
        }
        o.put("text", sb.toString());
      }
      case DISCORD -> {
        o.put("username", "agentdesk");
        o.put("content", clip(n.title(), 2000));
        ObjectNode embed = o.putArray("embeds").addObject();
        embed.put("title", clip(n.title(), 256));
        if (!n.text().isEmpty()) {
          embed.put("description", clip(n.text(), 4096));
        }
        if (n.url() != null && (n.url().startsWith("http://") || n.url().startsWith("https://"))) {
          embed.put("url", n.url());
        }
        embed.put("timestamp", n.at().toString());
      }
    }
    try {
      return MAPPER.writeValueAsBytes(o);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings always serialises", e);
    }
  }

  /** ntfy turns known tag names into emoji in front of the title. */
  private static String ntfyTag(EventKind k) {
    return switch (k) {
      case AWAITING_INPUT -> "question";
      case RATE_LIMIT -> "hourglass";
      case API_ERROR, EXIT_ERROR -> "warning";
      case PR_OPENED -> "tada";
      case TURN_FINISHED -> "white_check_mark";
      case AUTO_RESUMED -> "arrow_forward";
    };
  }

  /** Slack's three control characters in message text. */
  private static String slackEscape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String clip(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}
