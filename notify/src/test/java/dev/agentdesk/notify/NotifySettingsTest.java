package dev.agentdesk.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings file: defaults without one, a round trip, and a clear error for each kind of mistake. */
class NotifySettingsTest {
  @Test
  void noFileMeansTheDefaults(@TempDir Path dir) {
    NotifySettings s = NotifySettings.load(dir.resolve("agentdesk/notifications.json"));
    assertThat(s).isEqualTo(NotifySettings.defaults());
    assertThat(s.routes(EventKind.AWAITING_INPUT, Channel.WEBHOOK)).isTrue();
    assertThat(s.routes(EventKind.TURN_FINISHED, Channel.WEBHOOK)).isFalse();
    assertThat(s.resumeText()).isEqualTo("continue");
  }

  @Test
  void savedSettingsLoadBack(@TempDir Path dir) {
    Path file = dir.resolve("agentdesk/notifications.json");
    NotifySettings s = NotifySettings.defaults().withRoute(EventKind.API_ERROR, Set.of(Channel.DESKTOP))
        .withResumeMargin(Duration.ofSeconds(5));
    s.save(file);
    assertThat(NotifySettings.load(file)).isEqualTo(s);
  }

  @Test
  void aPartialFileKeepsTheOtherDefaults(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("n.json");
    Files.writeString(file, "{\"events\": {\"awaiting_input\": [\"desktop\"]}, \"sound\": true}");
    NotifySettings s = NotifySettings.load(file);
    assertThat(s.routes().get(EventKind.AWAITING_INPUT)).containsExactly(Channel.DESKTOP);
    assertThat(s.routes().get(EventKind.RATE_LIMIT)).containsExactlyInAnyOrder(Channel.values());
    assertThat(s.sound()).isTrue();
  }

  @Test
  void mistakesAreNamed(@TempDir Path dir) throws Exception {
    Map<String, String> cases = Map.of(
        "{\"events\": {\"awaiting\": [\"browser\"]}}", "unknown event 'awaiting'",
        "{\"events\": {\"awaiting_input\": [\"email\"]}}", "unknown channel 'email'",
        "{\"sound\": \"yes\"}", "sound must be true or false",
        "{\"resume_text\": \"\"}", "resume_text must be 1..200",
        "{\"resume_margin_s\": -1}", "resume_margin_s must be 0..3600",
        "{\"volume\": 3}", "unknown setting 'volume'",
        "[1]", "must be a JSON object",
        "{\"events\": ", "is not JSON");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      Path file = dir.resolve("bad.json");
      Files.writeString(file, c.getKey());
      assertThatThrownBy(() -> NotifySettings.load(file)).as(c.getKey()).isInstanceOf(NotifyException.class)
          .hasMessageContaining(file.toString()).hasMessageContaining(c.getValue())
          .matches(e -> ((NotifyException) e).reason() == NotifyException.Reason.BAD_SETTINGS);
    }
  }

  @Test
  void theFileLivesUnderTheConfigHome() {
    assertThat(NotifySettings.defaultFile(Map.of("XDG_CONFIG_HOME", "/x/cfg"), Path.of("/home/u")))
        .isEqualTo(Path.of("/x/cfg/agentdesk/notifications.json"));
    assertThat(NotifySettings.defaultFile(Map.of(), Path.of("/home/u")))
        .isEqualTo(Path.of("/home/u/.config/agentdesk/notifications.json"));
  }

  @Test
  void theJsonFormIsTheApiForm() {
    var json = NotifySettings.defaults().toJson();
    assertThat(json.path("events").path("turn_finished").toString()).isEqualTo("[\"browser\",\"desktop\"]");
    assertThat(NotifySettings.fromJson(new ObjectMapper().valueToTree(json))).isEqualTo(NotifySettings.defaults());
  }
}
