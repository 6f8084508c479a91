package dev.agentdesk.app.serve.terminals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.app.serve.ServeException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyEncoderTest {
  private static String enc(String name, boolean app) {
    return new String(KeyEncoder.encode(name, app), StandardCharsets.UTF_8);
  }

  @Test
  void singleCharactersAreSentAsThemselves() {
    assertThat(enc("1", false)).isEqualTo("1");
    assertThat(enc("é", false)).isEqualTo("é");
  }

  @Test
  void namedKeysInEitherSpelling() {
    assertThat(enc("enter", false)).isEqualTo("\r");
    assertThat(enc("Escape", false)).isEqualTo("\u001b");
    assertThat(enc("shift_tab", false)).isEqualTo("\u001b[Z");
    assertThat(enc("ctrl+c", false)).isEqualTo("\u0003");
    assertThat(enc("ctrl-a", false)).isEqualTo("\u0001");
    assertThat(enc("f5", false)).isEqualTo("\u001b[15~");
  }

  @Test
  void arrowsFollowTheCursorKeyMode() {
    assertThat(enc("up", false)).isEqualTo("\u001b[A");
    assertThat(enc("up", true)).isEqualTo("\u001bOA");
    assertThat(enc("left", true)).isEqualTo("\u001bOD");
  }

  @Test
  void unknownNamesAndControlCharactersAre400s() {
    assertThatThrownBy(() -> KeyEncoder.encode("hyperspace", false)).isInstanceOf(ServeException.class)
        .hasMessageContaining("unknown key 'hyperspace'")
        .satisfies(e -> assertThat(((ServeException) e).reason()).isEqualTo(ServeException.Reason.BAD_REQUEST));
    assertThatThrownBy(() -> KeyEncoder.encode("\u0007", false)).isInstanceOf(ServeException.class);
    assertThatThrownBy(() -> KeyEncoder.encode("", false)).isInstanceOf(ServeException.class);
  }
}
