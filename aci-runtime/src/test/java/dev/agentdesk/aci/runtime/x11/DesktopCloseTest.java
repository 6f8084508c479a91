package dev.agentdesk.aci.runtime.x11;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Keysyms;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Closing the X11 desktop while other threads use it. A use after close that reached Xlib would
 * crash the test JVM (SIGSEGV in libX11), so these tests fail by killing the fork, not by an
 * assertion; what they assert is that every late use gets the typed error and that the server's
 * keymap and buttons are as before.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 800, height = 600)
class DesktopCloseTest {
  private static final List<Long> NON_LATIN = Keysyms.forText("héllo ☃ 日本");

  @Test
  void closeRestoresTheKeymapIsIdempotentAndRefusesLaterUse(XDisplay x) throws Exception {
    String before = Ext.run(x.name(), "xmodmap", "-pke");
    X11Desktop desktop = X11Desktop.open(x.name());
    desktop.input().typeKeysyms(NON_LATIN);
    desktop.input().button(1, true); // a mouse_down the client never released
    assertThat(Ext.run(x.name(), "xmodmap", "-pke")).as("spare keycodes borrowed").isNotEqualTo(before);
    desktop.close();
    desktop.close();
    assertThat(Ext.run(x.name(), "xmodmap", "-pke")).isEqualTo(before);
    assertThat(buttonsHeld(x)).as("button 1 released on close").isFalse();
    String closed = "X11 display " + x.name() + " is closed (the runtime is stopping)";
    assertThatThrownBy(() -> desktop.input().motion(1, 1)).isInstanceOf(AciRuntimeException.class).hasMessage(closed);
    assertThatThrownBy(() -> desktop.input().typeKeysyms(NON_LATIN)).hasMessage(closed);
    assertThatThrownBy(() -> desktop.capture().capture(new Rect(0, 0, 10, 10))).hasMessage(closed);
    assertThatThrownBy(() -> desktop.capture().screen()).hasMessage(closed);
    assertThatThrownBy(() -> desktop.windows().list()).hasMessage(closed);
    assertThatThrownBy(desktop::alive).hasMessage(closed);
    assertThatThrownBy(() -> desktop.clipboard().set("x")).hasMessage("clipboard is closed (the runtime is stopping)");
  }

  @Test
  void closeWhileFourThreadsTypeCaptureAndQueryNeverCrashes(XDisplay x) throws Exception {
    String before = Ext.run(x.name(), "xmodmap", "-pke");
    for (int round = 0; round < 12; round++) {
      X11Desktop desktop = X11Desktop.open(x.name());
      ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
      AtomicInteger calls = new AtomicInteger();
      CountDownLatch started = new CountDownLatch(4);
      List<Runnable> uses = List.of(
          () -> desktop.input().typeKeysyms(NON_LATIN),
          () -> desktop.capture().capture(desktop.capture().screen()),
          () -> desktop.windows().list(),
          () -> desktop.input().keyCombo(List.of(Keysyms.CONTROL_L, Keysyms.SHIFT_L), 'u'));
      List<Thread> threads = new ArrayList<>();
      for (Runnable use : uses) {
        Thread t = new Thread(() -> {
          started.countDown();
          while (true) {
            try {
              use.run();
              calls.incrementAndGet();
            } catch (AciRuntimeException e) {
              if (!e.getMessage().contains("is closed") && !e.getMessage().startsWith("type_text stopped")) {
                unexpected.add(e);
              }
              return; // the typed refusal: the desktop is closed
            } catch (RuntimeException | Error e) {
              unexpected.add(e);
              return;
            }
          }
        }, "desktop-user-" + threads.size());
        threads.add(t);
        t.start();
      }
      started.await();
      Thread.sleep(20 + round * 15L);
      desktop.close();
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(t.isAlive()).as("%s ended after close", t.getName()).isFalse();
      }
      assertThat(unexpected).isEmpty();
      assertThat(calls.get()).as("the threads really used the desktop").isPositive();
      assertThat(Ext.run(x.name(), "xmodmap", "-pke")).as("round %d", round).isEqualTo(before);
    }
  }

  /** Whether any pointer button is down, from the button mask another client's XQueryPointer sees. */
  private static boolean buttonsHeld(XDisplay x) {
    X11Connection c = X11Connection.open(x.name());
    try {
      com.sun.jna.ptr.LongByReference root = new com.sun.jna.ptr.LongByReference();
      com.sun.jna.ptr.LongByReference child = new com.sun.jna.ptr.LongByReference();
      com.sun.jna.ptr.IntByReference i = new com.sun.jna.ptr.IntByReference();
      com.sun.jna.ptr.IntByReference mask = new com.sun.jna.ptr.IntByReference();
      Xlib.X.XQueryPointer(c.dpy, c.root, root, child, i, i, i, i, mask);
      return (mask.getValue() & (0x1F << 8)) != 0; // Button1Mask..Button5Mask
    } finally {
      c.close();
    }
  }
}
