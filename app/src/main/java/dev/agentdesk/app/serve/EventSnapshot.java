package dev.agentdesk.app.serve;

import java.util.List;

/** An area whose current state a new {@code /ws/events} client should get at once. */
public interface EventSnapshot {
  List<ServerEvent> snapshot();
}
