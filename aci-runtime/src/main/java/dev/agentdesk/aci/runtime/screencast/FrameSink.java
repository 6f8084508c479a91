package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.wire.ObservationMsg;

/**
 * Where a stream's frames go: the connection's droppable path. A frame is either refused (the
 * connection holds too much unwritten data) or accepted, and then {@code written} runs once when
 * the transport has written it (or given up on a closed connection).
 */
@FunctionalInterface
public interface FrameSink {
  boolean offer(ObservationMsg frame, Runnable written);
}
