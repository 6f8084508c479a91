package dev.agentdesk.aci.runtime.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Gestures;
import dev.agentdesk.aci.runtime.desktop.Keysyms;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.desktop.WindowInfo;
import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The X11 backend against a real Xvfb, with every effect read back by another X client or tool. */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 1280, height = 800)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class X11DesktopTest {
  static X11Desktop desktop;
  static TestWindows windows;
  static String display;

  @BeforeAll
  static void open(XDisplay x) {
    display = x.name();
    desktop = X11Desktop.open(display);
    windows = new TestWindows(display);
  }

  @AfterAll
  static void close() {
    windows.close();
    desktop.close();
  }

  @Test
  @Order(1)
  void clipboardStartsEmptyWithTheReferenceError() {
    assertThatThrownBy(() -> desktop.clipboard().get())
        .hasMessage("clipboard is empty (no owner answered UTF8_STRING or STRING)");
  }

  @Test
  void pointerMovesClicksAndDragsWhereAsked() throws Exception {
    Gestures g = new Gestures(desktop.input());
    desktop.input().motion(123, 456);
    desktop.input().sync();
    assertThat(Ext.mouse(display)).containsExactly(123, 456);
    g.click(640, 10, 1, 2);
    assertThat(Ext.mouse(display)).containsExactly(640, 10);
    g.drag(10, 20, 300, 200, 1, 120);
    assertThat(Ext.mouse(display)).containsExactly(300, 200);
    g.scroll(700, 500, 0, 250);
    assertThat(Ext.mouse(display)).containsExactly(700, 500);
    assertThat(desktop.input().pointer()).containsExactly(700, 500);
  }

  @Test
  void captureReadsKnownPixelsAtKnownPlacesOnBothPaths() {
    long red = windows.create(100, 50, 200, 120, 0xFF0000, "red", "Red", null);
    windows.patch(red, 20, 30, 10, 10, 0x0000FF);
    try (X11Desktop noShm = X11Desktop.open(display, false)) {
      assertThat(desktop.capture().sharedMemory()).isTrue();
      assertThat(noShm.capture().sharedMemory()).isFalse();
      for (X11Desktop d : List.of(desktop, noShm)) {
        RgbImage screen = d.capture().capture(d.capture().screen());
        assertThat(screen.width()).isEqualTo(1280);
        assertThat(screen.height()).isEqualTo(800);
        assertThat(screen.rgbAt(100, 50)).isEqualTo(0xFF0000);
        assertThat(screen.rgbAt(299, 169)).isEqualTo(0xFF0000);
        assertThat(screen.rgbAt(99, 50)).isEqualTo(0x000000);
        assertThat(screen.rgbAt(300, 169)).isEqualTo(0x000000);
        assertThat(screen.rgbAt(100, 170)).isEqualTo(0x000000);
        assertThat(screen.rgbAt(120, 80)).isEqualTo(0x0000FF);
        assertThat(screen.rgbAt(129, 89)).isEqualTo(0x0000FF);
        assertThat(screen.rgbAt(130, 90)).isEqualTo(0xFF0000);
        RgbImage win = d.capture().capture(d.windows().geometry(red).orElseThrow());
        assertThat(win.width()).isEqualTo(200);
        assertThat(win.height()).isEqualTo(120);
        assertThat(win.rgbAt(0, 0)).isEqualTo(0xFF0000);
        assertThat(win.rgbAt(20, 30)).isEqualTo(0x0000FF);
        assertThat(win.frameHash()).isEqualTo(d.capture().capture(new Rect(100, 50, 200, 120)).frameHash());
      }
    } finally {
      windows.destroy(red);
    }
  }

  @Test
  void capturedFramesHashTheSameUntilTheScreenChanges() {
    Rect region = new Rect(400, 400, 64, 64);
    String before = desktop.capture().capture(region).frameHash();
    assertThat(desktop.capture().capture(region).frameHash()).isEqualTo(before);
    long green = windows.create(410, 410, 5, 5, 0x00FF00, "g", "G", null);
    try {
      assertThat(desktop.capture().capture(region).frameHash()).isNotEqualTo(before);
    } finally {
      windows.destroy(green);
    }
    assertThat(desktop.capture().capture(region).frameHash()).isEqualTo(before);
  }

  @Test
  void windowsAreListedWithTitleClassPidGeometryAndFocus() throws Exception {
    long w = windows.create(700, 100, 150, 90, 0x808080, "Rød ☃ window", "Snowman", 4242);
    try {
      WindowInfo info = find(w);
      assertThat(info.title()).isEqualTo("Rød ☃ window");
      assertThat(info.appClass()).isEqualTo("Snowman");
      assertThat(info.pid()).isEqualTo(4242);
      assertThat(info.bounds()).isEqualTo(new Rect(700, 100, 150, 90));
      assertThat(desktop.windows().windowManagerPresent()).isFalse();
      desktop.windows().activate(w);
      assertThat(Ext.run(display, "xdotool", "getwindowfocus").trim()).isEqualTo(Long.toString(w));
      assertThat(find(w).focused()).isTrue();
      assertThat(desktop.windows().active()).contains(w);
      assertThatThrownBy(() -> desktop.windows().activate(0x7ffffff0L))
          .hasMessage("activate_window: window 0x7ffffff0 not found");
      assertThat(desktop.windows().geometry(0x7ffffff0L)).isEqualTo(Optional.empty());
    } finally {
      windows.destroy(w);
    }
    assertThat(desktop.windows().list()).noneMatch(i -> i.id() == w);
  }

  private static WindowInfo find(long id) {
    return desktop.windows().list().stream().filter(i -> i.id() == id).findFirst().orElseThrow();
  }

  @Test
  void clipboardRoundTripsWithXclipInBothDirections() throws Exception {
    String text = "héllo ☃ 日本\nline two";
    desktop.clipboard().set(text);
    assertThat(Ext.run(display, "xclip", "-selection", "clipboard", "-o")).isEqualTo(text);
    assertThat(desktop.clipboard().get()).isEqualTo(text);
    // another owner takes over: xclip serves the selection from a background process
    Ext.feedDetached(display, "from xclip ✓", "xclip", "-selection", "clipboard", "-i");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    String got = "";
    while (System.nanoTime() < deadline && !got.equals("from xclip ✓")) {
      got = desktop.clipboard().get();
    }
    assertThat(got).isEqualTo("from xclip ✓");
    assertThatThrownBy(() -> desktop.clipboard().set("x".repeat((1 << 20) + 1)))
        .hasMessage("clipboard_set text too large: 1048577 bytes (cap 1048576)");
  }

  @Test
  void unicodeTextAndKeyCombosReachARealGtkEntryAndAClickClosesTheDialog() throws Exception {
    Process zenity = Ext.start(display, "zenity", "--entry", "--title=agentdesk-entry", "--text=type here");
    try {
      WindowInfo dialog = waitForWindow("agentdesk-entry");
      Rect b = dialog.bounds();
      Gestures g = new Gestures(desktop.input());
      g.click(b.x() + b.w() / 2, b.y() + 52, 1, 1); // into the entry
      Thread.sleep(200);
      desktop.input().typeKeysyms(Keysyms.forText("throw this away"));
      Keysyms.Combo selectAll = Keysyms.parseCombo("ctrl+a");
      desktop.input().keyCombo(selectAll.modifiers(), selectAll.key());
      String text = "héllo wörld — ☃ 日本 ÆØÅ €";
      desktop.input().typeKeysyms(Keysyms.forText(text + "XY"));
      Keysyms.Combo back = Keysyms.parseCombo("BackSpace");
      desktop.input().keyCombo(back.modifiers(), back.key());
      desktop.input().keyCombo(back.modifiers(), back.key());
      Thread.sleep(300);
      g.click(b.x() + b.w() - 51, b.y() + b.h() - 25, 1, 1); // the OK button
      assertThat(zenity.waitFor(10, TimeUnit.SECONDS)).as("zenity closed by the click").isTrue();
      String out = new String(zenity.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(out).isEqualTo(text + "\n");
      assertThat(zenity.exitValue()).isZero();
    } finally {
      zenity.destroyForcibly();
    }
  }

  @Test
  void untypableCharactersAndBadCombosAreTypedErrors() {
    assertThatThrownBy(() -> Keysyms.forText("ok\u0007")).isInstanceOf(AciRuntimeException.class)
        .hasMessage("cannot type char '\\u{7}'");
    assertThatThrownBy(() -> Keysyms.parseCombo("hyper+x")).hasMessage("unknown modifier \"hyper\"");
    assertThatThrownBy(() -> Keysyms.parseCombo("ctrl+f13")).hasMessage("unknown key \"f13\"");
    assertThatThrownBy(() -> Keysyms.parseCombo(" + ")).hasMessage("empty key combo");
    assertThat(Keysyms.parseCombo("ctrl+shift+t"))
        .isEqualTo(new Keysyms.Combo(List.of(Keysyms.CONTROL_L, Keysyms.SHIFT_L), 't'));
    assertThat(Keysyms.parseCombo("alt+F4")).isEqualTo(new Keysyms.Combo(List.of(Keysyms.ALT_L), 0xffc1L));
  }

  static WindowInfo waitForWindow(String title) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      for (WindowInfo w : desktop.windows().list()) {
        if (w.title().equals(title) && w.bounds().w() > 50) {
          Thread.sleep(500); // let GTK finish its first draw
          return w;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no window titled " + title);
  }
}
