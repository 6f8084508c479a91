package dev.agentdesk.terminal.session;

import java.util.List;

/**
 * A choice menu the agent is showing, as the session state keeps it: numbered (a digit answers) or
 * a cursor menu (the arrows move the marker, Enter answers).
 *
 * @param title the question above the options
 * @param options the numbered options in screen order
 * @param dismissKey the footer's "Esc to …" word, or null
 * @param amendKey the footer's "Tab to …" word, or null
 * @param numbered the options carry their digits on screen
 * @param across the options stand side by side (a row of buttons): the cursor moves with Left/Right
 */
public record PendingChoice(String title, List<Option> options, String dismissKey, String amendKey, boolean numbered,
    boolean across) {

  public PendingChoice {
    options = List.copyOf(options);
  }

  /** A numbered menu: a digit answers it. */
  public PendingChoice(String title, List<Option> options, String dismissKey, String amendKey) {
    this(title, options, dismissKey, amendKey, true);
  }

  /** A menu whose options stand one under the other. */
  public PendingChoice(String title, List<Option> options, String dismissKey, String amendKey, boolean numbered) {
    this(title, options, dismissKey, amendKey, numbered, false);
  }

  /**
   * The keys that choose option {@code index}: its digit for a numbered menu; for a cursor menu
   * the arrow presses from the highlighted option to it, then Enter.
   *
   * @throws IllegalArgumentException when the menu has no such option
   */
  public List<Key> keysFor(int index) {
    int target = -1;
    int at = -1;
    for (int i = 0; i < options.size(); i++) {
      if (options.get(i).index() == index) {
        target = i;
      }
      if (options.get(i).highlighted()) {
        at = i;
      }
    }
    if (target < 0) {
      throw new IllegalArgumentException("no option " + index);
    }
    if (numbered) {
      return List.of(); // typed as its digit
    }
    java.util.ArrayList<Key> keys = new java.util.ArrayList<>();
    int from = at < 0 ? 0 : at;
    for (int i = from; i < target; i++) {
      keys.add(across ? Key.RIGHT : Key.DOWN);
    }
    for (int i = from; i > target; i--) {
      keys.add(across ? Key.LEFT : Key.UP);
    }
    keys.add(Key.ENTER);
    return keys;
  }

  /** Same title and same numbered labels: the same menu, perhaps redrawn with more detail. */
  public boolean sameMenu(PendingChoice other) {
    return other != null && title.equals(other.title)
        && options.stream().map(Option::label).toList().equals(other.options.stream().map(Option::label).toList());
  }

  /**
   * One option; {@code destructive} marks no/cancel/reject-style answers, {@code description} the
   * agent's explanation drawn under it (or null), {@code highlighted} the cursor marker on it.
   */
  public record Option(int index, String label, boolean destructive, String description, boolean highlighted) {
    public Option(int index, String label, boolean destructive) {
      this(index, label, destructive, null, false);
    }
  }
}
