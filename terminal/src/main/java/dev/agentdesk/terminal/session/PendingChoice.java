package dev.agentdesk.terminal.session;

import java.util.List;

/**
 * A numbered choice menu the agent is showing, as the session state keeps it.
 *
 * @param title the question above the options
 * @param options the numbered options in screen order
 * @param dismissKey the footer's "Esc to …" word, or null
 * @param amendKey the footer's "Tab to …" word, or null
 */
public record PendingChoice(String title, List<Option> options, String dismissKey, String amendKey) {

  public PendingChoice {
    options = List.copyOf(options);
  }

  /** Same title and same numbered labels: the same menu, perhaps redrawn with more detail. */
  public boolean sameMenu(PendingChoice other) {
    return other != null && title.equals(other.title)
        && options.stream().map(Option::label).toList().equals(other.options.stream().map(Option::label).toList());
  }

  /** One numbered option; {@code destructive} marks no/cancel/reject-style answers. */
  public record Option(int index, String label, boolean destructive) {}
}
