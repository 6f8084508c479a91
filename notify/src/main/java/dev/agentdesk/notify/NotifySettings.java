package dev.agentdesk.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Which events reach which channel, the sound, and auto-resume's text and margin: the file
 * {@code $XDG_CONFIG_HOME/agentdesk/notifications.json} and the dashboard's settings panel. Immutable.
 *
 * @param routes per event, the channels it goes to (an event missing here goes nowhere)
 * @param sound the dashboard plays a short sound with each browser notification
 * @param resumeText what auto-resume types (then Enter)
 * @param resumeMargin how long after the reset auto-resume waits before typing
 */
public record NotifySettings(Map<EventKind, Set<Channel>> routes, boolean sound, String resumeText,
    Duration resumeMargin) {
  /** The file under the config home. */
  public static final String FILE_NAME = "notifications.json";
  static final int MAX_RESUME_TEXT = 200;
  static final Duration MAX_MARGIN = Duration.ofHours(1);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  public NotifySettings {
    EnumMap<EventKind, Set<Channel>> copy = new EnumMap<>(EventKind.class);
    for (EventKind k : EventKind.values()) {
      Set<Channel> c = routes.get(k);
      copy.put(k, c == null || c.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(c)));
    }
    routes = java.util.Collections.unmodifiableMap(copy);
    if (resumeText == null || resumeText.isEmpty() || resumeText.length() > MAX_RESUME_TEXT
        || resumeText.chars().anyMatch(ch -> ch < 0x20 && ch != '\t')) {
      throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, "resume_text must be 1.." + MAX_RESUME_TEXT
          + " characters without control characters (Enter is pressed after it), got "
          + (resumeText == null ? "none" : "'" + resumeText + "'"));
    }
    if (resumeMargin == null || resumeMargin.isNegative() || resumeMargin.compareTo(MAX_MARGIN) > 0) {
      throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, "resume_margin_s must be 0.."
          + MAX_MARGIN.toSeconds() + ", got " + (resumeMargin == null ? "none" : resumeMargin.toSeconds()));
    }
  }

  /**
   * Everything to the browser and the desktop; to webhooks all but finished turns (the most
   * frequent event, and the one least worth a phone buzzing); no sound; {@code continue} 30 s after
   * the reset.
   */
  public static NotifySettings defaults() {
    Map<EventKind, Set<Channel>> r = new EnumMap<>(EventKind.class);
    for (EventKind k : EventKind.values()) {
      r.put(k, k == EventKind.TURN_FINISHED ? EnumSet.of(Channel.BROWSER, Channel.DESKTOP) : EnumSet.allOf(Channel.class));
    }
    return new NotifySettings(r, false, "continue", Duration.ofSeconds(30));
  }

  public boolean routes(EventKind kind, Channel channel) {
    return routes.get(kind).contains(channel);
  }

  public NotifySettings withRoute(EventKind kind, Set<Channel> channels) {
    Map<EventKind, Set<Channel>> r = new EnumMap<>(routes);
    r.put(kind, channels);
    return new NotifySettings(r, sound, resumeText, resumeMargin);
  }

  public NotifySettings withResumeMargin(Duration margin) {
    return new NotifySettings(routes, sound, resumeText, margin);
  }

  /** {@code $XDG_CONFIG_HOME/agentdesk/notifications.json} (else {@code ~/.config/agentdesk/…}). */
  public static Path defaultFile(Map<String, String> env, Path home) {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config");
    return base.resolve("agentdesk").resolve(FILE_NAME);
  }

  /** The file's settings; the defaults when there is no file. A bad file is a typed error naming it. */
  public static NotifySettings load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return defaults();
    } catch (IOException e) {
      throw new NotifyException(NotifyException.Reason.IO, "cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      return fromJson(MAPPER.readTree(text));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, file + " is not JSON: " + e.getOriginalMessage(), e);
    } catch (NotifyException e) {
      throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, file + ": " + e.getMessage(), e);
    }
  }

  /** Writes the settings to {@code file} (made with its folder; replaced in one rename). */
  public void save(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.write(tmp, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson()));
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new NotifyException(NotifyException.Reason.IO, "cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** The JSON form (file and API): {@code {"events": {"awaiting_input": ["browser", …]}, "sound": …}}. */
  public ObjectNode toJson() {
    ObjectNode o = MAPPER.createObjectNode();
    ObjectNode ev = o.putObject("events");
    for (EventKind k : EventKind.values()) {
      var arr = ev.putArray(k.code());
      for (Channel c : Channel.values()) {
        if (routes.get(k).contains(c)) {
          arr.add(c.code());
        }
      }
    }
    o.put("sound", sound);
    o.put("resume_text", resumeText);
    o.put("resume_margin_s", resumeMargin.toSeconds());
    return o;
  }

  /**
   * Reads the JSON form on top of the defaults: a key left out keeps its default, an unknown key
   * or value is an error (a typo must not silently turn a notification off).
   */
  public static NotifySettings fromJson(JsonNode n) {
    if (n == null || !n.isObject()) {
      throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, "settings must be a JSON object");
    }
    NotifySettings d = defaults();
    Map<EventKind, Set<Channel>> routes = new EnumMap<>(d.routes());
    boolean sound = d.sound();
    String text = d.resumeText();
    Duration margin = d.resumeMargin();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      switch (f.getKey()) {
        case "events" -> {
          if (!v.isObject()) {
            throw bad("events must be an object of event → list of channels");
          }
          for (Iterator<Map.Entry<String, JsonNode>> e = v.fields(); e.hasNext();) {
            Map.Entry<String, JsonNode> ef = e.next();
            EventKind kind = EventKind.named(ef.getKey());
            if (!ef.getValue().isArray()) {
              throw bad("events." + ef.getKey() + " must be a list of channels (browser, desktop, webhook)");
            }
            Set<Channel> cs = EnumSet.noneOf(Channel.class);
            for (JsonNode c : ef.getValue()) {
              if (!c.isTextual()) {
                throw bad("events." + ef.getKey() + " lists " + c + ", not a channel name");
              }
              cs.add(Channel.named(c.asText()));
            }
            routes.put(kind, cs);
          }
        }
        case "sound" -> {
          if (!v.isBoolean()) {
            throw bad("sound must be true or false");
          }
          sound = v.asBoolean();
        }
        case "resume_text" -> {
          if (!v.isTextual()) {
            throw bad("resume_text must be a string");
          }
          text = v.asText();
        }
        case "resume_margin_s" -> {
          if (!v.isIntegralNumber()) {
            throw bad("resume_margin_s must be a whole number of seconds");
          }
          margin = Duration.ofSeconds(v.asLong());
        }
        default -> throw bad("unknown setting '" + f.getKey() + "'; known: events, sound, resume_text, resume_margin_s");
      }
    }
    return new NotifySettings(routes, sound, text, margin);
  }

  private static NotifyException bad(String message) {
    return new NotifyException(NotifyException.Reason.BAD_SETTINGS, message);
  }
}
