package dev.agentdesk.notify;

import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionListener;

/**
 * Feeds one plain terminal's state changes to the notifier and to auto-resume. Runs on the
 * session's reader thread; both only compare and queue there.
 */
public final class SessionWatch implements SessionListener {
  private final String id;
  private final String title;
  private final Notifier notifier;
  private final AutoResume autoResume;

  /** {@code autoResume} may be null (no auto-resume for this session). */
  public SessionWatch(String id, String title, Notifier notifier, AutoResume autoResume) {
    this.id = id;
    this.title = title;
    this.notifier = notifier;
    this.autoResume = autoResume;
  }

  @Override
  public void onEvent(SessionEvent event) {
    if (event instanceof SessionEvent.StateChanged sc) {
      SessionView v = SessionView.ofTerminal(id, title, sc.state());
      notifier.observe(v);
      if (autoResume != null) {
        autoResume.observe(v);
      }
    }
  }
}
