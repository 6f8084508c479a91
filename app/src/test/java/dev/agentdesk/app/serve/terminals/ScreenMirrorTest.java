package dev.agentdesk.app.serve.terminals;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScreenMirrorTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void fullFrameHasEveryRowAndTheCursor() {
    ScreenMirror m = new ScreenMirror(20, 4);
    m.feed(b("hello\r\nworld"));
    ScreenFrame f = m.full();
    assertThat(f.type()).isEqualTo("screen");
    assertThat(f.lines()).hasSize(4);
    assertThat(f.lines().get(0).spans()).extracting(ScreenFrame.Span::text).containsExactly("hello");
    assertThat(f.lines().get(1).spans()).extracting(ScreenFrame.Span::text).containsExactly("world");
    assertThat(f.lines().get(2).spans()).isEmpty();
    assertThat(f.cursor()).isEqualTo(new ScreenFrame.Cursor(1, 5, true));
  }

  @Test
  void changesListOnlyRowsThatDifferSinceTheLastCall() {
    ScreenMirror m = new ScreenMirror(20, 4);
    m.feed(b("one\r\ntwo"));
    assertThat(m.changes().lines()).extracting(ScreenFrame.Row::row).containsExactly(0, 1);
    assertThat(m.changes()).isNull();
    m.feed(b("\r\nthree"));
    ScreenFrame f = m.changes();
    assertThat(f.type()).isEqualTo("rows");
    assertThat(f.lines()).extracting(ScreenFrame.Row::row).containsExactly(2);
    assertThat(f.cursor().row()).isEqualTo(2);
  }

  @Test
  void aChangeOfColourAloneIsSent() {
    ScreenMirror m = new ScreenMirror(20, 3);
    m.feed(b("\u001b[1;1Hpick me"));
    m.changes();
    // Same text, now inverse: the row's text is unchanged but it must be redrawn.
    m.feed(b("\u001b[1;1H\u001b[7mpick me\u001b[0m"));
    ScreenFrame f = m.changes();
    assertThat(f).isNotNull();
    assertThat(f.lines()).hasSize(1);
    assertThat(f.lines().get(0).spans().get(0).inv()).isTrue();
  }

  @Test
  void stylesBecomeSpansWithCssColours() {
    ScreenMirror m = new ScreenMirror(40, 2);
    m.feed(b("\u001b[1;31mred\u001b[0m plain \u001b[38;2;1;2;3mrgb\u001b[48;5;21mbg\u001b[0m"));
    List<ScreenFrame.Span> spans = m.full().lines().get(0).spans();
    assertThat(spans).extracting(ScreenFrame.Span::text).containsExactly("red", " plain ", "rgb", "bg");
    assertThat(spans.get(0).b()).isTrue();
    assertThat(spans.get(0).fg()).isEqualTo("#f85149");
    assertThat(spans.get(1).fg()).isNull();
    assertThat(spans.get(2).fg()).isEqualTo("#010203");
    assertThat(spans.get(3).bg()).isEqualTo("#0000ff");
  }

  @Test
  void synchronizedOutputHoldsTheFrameBackUntilItEnds() {
    ScreenMirror m = new ScreenMirror(20, 2);
    m.feed(b("\u001b[?2026hhalf"));
    assertThat(m.changes()).isNull();
    m.feed(b(" done\u001b[?2026l"));
    assertThat(m.changes().lines().get(0).spans().get(0).text()).isEqualTo("half done");
  }

  @Test
  void resizeResetsTheBaselineSoEveryRowIsSentAgain() {
    ScreenMirror m = new ScreenMirror(20, 2);
    m.feed(b("a\r\nb"));
    m.changes();
    m.resize(30, 3);
    ScreenFrame f = m.changes();
    assertThat(f.cols()).isEqualTo(30);
    assertThat(f.lines()).extracting(ScreenFrame.Row::row).contains(0, 1);
  }

  @Test
  void structuralTokensAreStripped() {
    List<String> lines = List.of("work", "intent: Reading auth module (Auth review)", "● suggest: [ Run tests | Review diff ]",
        "the word intent: inside prose stays", "  suggest: [ not at column 0 ] stays", "end");
    assertThat(StructuralTokens.strip(lines))
        .containsExactly("work", "the word intent: inside prose stays", "  suggest: [ not at column 0 ] stays", "end");
  }
}
