package dev.agentdesk.aci.runtime.desktop;

import java.util.List;

/** Synthetic pointer and keyboard input on the global desktop. */
public interface InputBackend {
  /** Moves the pointer to (x, y) in global pixels. */
  void motion(int x, int y);

  /** Presses or releases pointer button {@code button} (1 left, 2 middle, 3 right, 4-7 wheel). */
  void button(int button, boolean press);

  /**
   * Presses the modifiers in order, the key, releases the key and the modifiers in reverse order.
   * The key is looked up by keysym; when it sits on the shifted level of its keycode, Shift is added
   * around it unless {@code modifiers} already hold Shift.
   */
  void keyCombo(List<Long> modifierKeysyms, long keysym);

  /** Types {@code keysyms} one after another; each may need a temporary keycode. */
  void typeKeysyms(List<Long> keysyms);

  /** The live pointer position [x, y]. */
  int[] pointer();

  /** Waits until the X server has processed every event sent so far. */
  void sync();
}
