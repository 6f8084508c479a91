package dev.agentdesk.terminal.osc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class OscScannerTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<OscNotification> scanAll(byte[] b) {
    return new OscScanner().scan(b, 0, b.length);
  }

  @Test
  void progressWithBelAndWithStringTerminator() {
    assertThat(scanAll(bytes("a\u001b]9;4;1;42\u0007b\u001b]9;4;3;\u001b\\c"))).containsExactly(
        new OscNotification.ProgressReport(1, 42), new OscNotification.ProgressReport(3, 0));
  }

  @Test
  void progressValueAbove100IsClampedAndBadStatesAreIgnored() {
    assertThat(scanAll(bytes("\u001b]9;4;2;250\u0007\u001b]9;4;7;5\u0007\u001b]9;4;x;5\u0007")))
        .containsExactly(new OscNotification.ProgressReport(2, 100));
  }

  @Test
  void notificationAndHookMarkerAreDecoded() {
    assertThat(scanAll(bytes("\u001b]777;notify;Claude Code;Claude needs your permission to use Bash\u0007"
        + "\u001b]7770;state=awaiting;tool=AskUserQuestion\u001b\\"))).containsExactly(
        new OscNotification.DesktopNotification("Claude Code", "Claude needs your permission to use Bash"),
        new OscNotification.HookMarker(Map.of("state", "awaiting", "tool", "AskUserQuestion")));
  }

  @Test
  void everyNotificationOfOneChunkIsKeptInStreamOrder() {
    List<OscNotification> found = scanAll(bytes("\u001b]777;notify;t;first needs your permission\u0007x"
        + "\u001b]9;4;1;10\u0007\u001b]777;notify;t;second is waiting for your input\u0007"));
    assertThat(found).containsExactly(
        new OscNotification.DesktopNotification("t", "first needs your permission"),
        new OscNotification.ProgressReport(1, 10),
        new OscNotification.DesktopNotification("t", "second is waiting for your input"));
  }

  @Test
  void otherOscsAreSkippedWithoutBuffering() {
    OscScanner s = new OscScanner();
    byte[] title = bytes("\u001b]0;" + "x".repeat(100_000));
    assertThat(s.scan(title, 0, title.length)).isEmpty();
    assertThat(s.carriedBytes()).isLessThanOrEqualTo(5);
    byte[] rest = bytes("\u0007\u001b]9;4;1;5\u0007");
    assertThat(s.scan(rest, 0, rest.length)).containsExactly(new OscNotification.ProgressReport(1, 5));
  }

  @Test
  void carryOverIsBoundedForAnUnterminatedSequence() {
    OscScanner s = new OscScanner();
    byte[] open = bytes("\u001b]777;notify;t;" + "y".repeat(50_000));
    s.scan(open, 0, open.length);
    assertThat(s.carriedBytes()).isLessThanOrEqualTo(OscCodes.MAX_BODY);
    byte[] end = bytes("\u0007\u001b]9;4;1;1\u0007");
    // The oversized body is dropped; the scanner recovers for the next sequence.
    assertThat(s.scan(end, 0, end.length)).containsExactly(new OscNotification.ProgressReport(1, 1));
  }

  @Test
  void escapeInsideABodyAbandonsIt() {
    assertThat(scanAll(bytes("\u001b]9;4;1;5\u001b[31m\u001b]9;4;1;6\u0007"))).containsExactly(
        new OscNotification.ProgressReport(1, 6));
  }

  @Test
  void cancelAbortsTheSequence() {
    assertThat(scanAll(bytes("\u001b]9;4;1;5\u0018\u0007"))).isEmpty();
  }

  private static final String STREAM = "pre\u001b]9;4;1;5\u0007mid\u001b]777;notify;Claude Code;Claude is waiting for your input"
      + "\u001b\\\u001b]0;title\u0007\u001b]7770;state=busy\u0007ü€\u001b]777;notify;x;needs your permission\u0007end";

  @Property(tries = 300)
  void splittingTheStreamAnywhereYieldsTheSameNotifications(@ForAll @Size(max = 6) List<@IntRange(min = 0, max = 400) Integer> cuts) {
    byte[] all = bytes(STREAM);
    List<OscNotification> whole = scanAll(all);
    OscScanner s = new OscScanner();
    List<OscNotification> pieces = new ArrayList<>();
    int prev = 0;
    for (int c : cuts.stream().map(c -> Math.min(c, all.length)).sorted().toList()) {
      pieces.addAll(s.scan(all, prev, c - prev));
      prev = c;
    }
    pieces.addAll(s.scan(all, prev, all.length - prev));
    assertThat(whole).hasSize(4);
    assertThat(pieces).isEqualTo(whole);
  }

  @Property(tries = 300)
  void randomBytesInRandomChunksNeverThrow(@ForAll("noise") byte[] data, @ForAll @IntRange(min = 1, max = 64) int chunk) {
    OscScanner s = new OscScanner();
    for (int i = 0; i < data.length; i += chunk) {
      s.scan(data, i, Math.min(chunk, data.length - i));
    }
    assertThat(s.carriedBytes()).isLessThanOrEqualTo(OscCodes.MAX_BODY);
  }

  @Provide
  Arbitrary<byte[]> noise() {
    // Bias toward the bytes that drive the state machine.
    Arbitrary<Byte> b = Arbitraries.oneOf(Arbitraries.bytes(),
        Arbitraries.of((byte) 0x1b, (byte) ']', (byte) 0x07, (byte) '\\', (byte) '9', (byte) ';', (byte) '4', (byte) '7'));
    return b.array(byte[].class).ofMaxSize(2000);
  }

  @Test
  void bytesAreOnlyRead() {
    byte[] b = bytes("\u001b]9;4;1;5\u0007");
    byte[] copy = b.clone();
    new OscScanner().scan(b, 0, b.length);
    assertThat(b).isEqualTo(copy);
    ByteArrayOutputStream unused = new ByteArrayOutputStream();
    assertThat(unused.size()).isZero();
  }
}
