package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentdesk.agents.AgentStatus.Phase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transcript side may be slow (a large file parsed, a slow disk, a folder with thousands of
 * sessions searched): the agent's terminal must not wait for it. Here the search hangs until the
 * test lets it go; meanwhile the stand-in's output and its question still reach the session and
 * the API, and once the search returns the transcript is linked as usual.
 */
class SlowTranscriptTest {
  @TempDir Path tmp;
  AgentSessions sessions;

  @AfterEach
  void tearDown() {
    if (sessions != null) {
      sessions.close();
    }
  }

  @Test
  void aHangingTranscriptSearchHoldsUpNeitherTheTerminalNorTheApi() throws Exception {
    Standins standins = new Standins(tmp);
    TestRepo repo = TestRepo.create(tmp, "demo");
    CountDownLatch searching = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    sessions = AgentSessions.open(standins.config(tmp), real -> (type, launchId, worktree, spawnedAt, claimed) -> {
      searching.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return real.find(type, launchId, worktree, spawnedAt, claimed);
    });
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("slow").withPrompt("add notes"));
    assertThat(searching.await(30, TimeUnit.SECONDS)).as("the poller is in the search").isTrue();

    AgentSession asking = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      AgentSession[] last = new AgentSession[1];
      Standins.await("the stand-in's question while the search hangs",
          () -> (last[0] = sessions.get(s.id())).status().awaitingInput());
      return last[0];
    }, "the session's state waited for the transcript search");
    assertThat(asking.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(asking.transcript()).as("not linked: the search still hangs").isNull();
    assertThat(String.join("\n", sessions.terminal(s.id()).orElseThrow().screen().lines()))
        .contains("Which database should I use?");

    release.countDown();
    AgentSession linked = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      AgentSession[] last = new AgentSession[1];
      Standins.await("the link once the search returns", () -> (last[0] = sessions.get(s.id())).transcript() != null);
      return last[0];
    });
    assertThat(linked.transcript().sessionId()).isEqualTo(s.launchId());
  }
}
