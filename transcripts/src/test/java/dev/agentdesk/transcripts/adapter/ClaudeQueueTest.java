package dev.agentdesk.transcripts.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Claude Code's prompt queue, replayed from its queue-operation lines (what each operation hands back). */
class ClaudeQueueTest {
  private static final String NOTIFICATION = "<task-notification>\n<task-id>b0be39e</task-id>\n<status>completed"
      + "</status>\n" + "x".repeat(50_000) + "\n</task-notification>";

  private static JsonNode op(String operation, String content) {
    var o = JsonlScan.MAPPER.createObjectNode().put("type", "queue-operation").put("operation", operation);
    if (content != null) {
      o.put("content", content);
    }
    return o;
  }

  /** The queue after a cursor round trip, as the next incremental read sees it. */
  private static ClaudeQueue reread(ClaudeQueue q) throws Exception {
    return new ClaudeQueue(JsonlScan.MAPPER.readTree(q.state().toString()));
  }

  @Test
  void aDequeuedPromptIsTheNextUserLinesSoNothingIsHandedBack() throws Exception {
    ClaudeQueue q = new ClaudeQueue(null);
    assertThat(q.apply(op("enqueue", "first"))).isNull();
    assertThat(q.apply(op("enqueue", "second"))).isNull();
    assertThat(q.apply(op("dequeue", null))).isNull();
    q = reread(q);
    // the head went: a content-less remove now takes "second"
    assertThat(q.apply(op("remove", null))).isEqualTo("second");
    assertThat(q.state()).isEmpty();
  }

  @Test
  void aRemoveWithContentIsCarriedByItsAttachmentAndARemoveWithoutIsHandedBack() {
    ClaudeQueue q = new ClaudeQueue(null);
    q.apply(op("enqueue", "use a window of 60 seconds"));
    assertThat(q.apply(op("remove", "use a window of 60 seconds"))).isNull();
    assertThat(q.state()).isEmpty();
    q.apply(op("enqueue", "check again"));
    assertThat(q.apply(op("remove", null))).isEqualTo("check again");
  }

  @Test
  void aContentlessRemoveTakesTheOldestTypedPromptNotAWaitingNotification() throws Exception {
    ClaudeQueue q = new ClaudeQueue(null);
    q.apply(op("enqueue", NOTIFICATION));
    q.apply(op("enqueue", "new beads for the epic were added. tackle them"));
    // the notification is kept as a digest: the cursor stays small
    assertThat(q.state().toString().length()).isLessThan(200);
    q = reread(q);
    assertThat(q.apply(op("remove", null))).isEqualTo("new beads for the epic were added. tackle them");
    // the notification arrives as a user line: it leaves the queue, matched by its digest
    q.delivered(NOTIFICATION);
    assertThat(q.state()).isEmpty();
  }

  @Test
  void aRemovedSlashCommandOrNotificationIsNotHandedBack() {
    ClaudeQueue q = new ClaudeQueue(null);
    q.apply(op("enqueue", "/mcp"));
    assertThat(q.apply(op("remove", null))).isNull();
    q.apply(op("enqueue", NOTIFICATION));
    assertThat(q.apply(op("remove", null))).isNull();
    assertThat(q.state()).isEmpty();
  }

  @Test
  void popAllClearsAndTheQueueIsBounded() {
    ClaudeQueue q = new ClaudeQueue(null);
    for (int i = 0; i < ClaudeQueue.LIMIT + 5; i++) {
      q.apply(op("enqueue", "prompt " + i));
    }
    assertThat(q.state()).hasSize(ClaudeQueue.LIMIT);
    assertThat(q.state().get(0).asText()).isEqualTo("prompt 5");
    q.apply(op("popAll", null));
    assertThat(q.state()).isEmpty();
    assertThat(q.apply(op("remove", null))).isNull();
  }
}
