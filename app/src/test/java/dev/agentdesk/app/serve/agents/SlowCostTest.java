package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentdesk.agents.AgentSession;
import dev.agentdesk.agents.AgentSpec;
import dev.agentdesk.agents.AgentType;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.notifications.NotificationsArea;
import dev.agentdesk.app.serve.terminals.TerminalsArea;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's agent JSON is built on the PTY's event thread; its cost comes from the history,
 * whose reads share one lock with searches and usage queries. Here the history's answer hangs (a
 * slow query holding the lock) until the test lets it go: the agent's terminal goes on (its
 * question arrives, the answer goes in, what it draws next is read), and once the history's answer
 * comes, it is in the JSON.
 */
class SlowCostTest {
  @Test
  void aHangingCostLookupDoesNotFreezeTheAgentsTerminal(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    Map<String, String> env = AgentsApiTest.env(dir);
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    EventHub events = new EventHub();
    try (NotificationsArea notifications = new NotificationsArea(
            new ServeConfig.Notifications(List.of(), null, null, false), events);
        TerminalsArea terminals = new TerminalsArea(events, dir.resolve("data"), notifications);
        AgentsArea area = new AgentsArea(dir.resolve("data"), env, events, terminals, sessionId -> {
          asked.countDown();
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return new AgentCost(0.25, null);
        }, notifications)) {
      AgentSession s = area.sessions().start(AgentSpec.of(AgentType.CLAUDE, repo).withWorktree("slow").withPrompt("hi"));
      assertThat(asked.await(30, TimeUnit.SECONDS)).as("the cost was asked for once the transcript was linked").isTrue();

      AgentSession asking = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        AgentSession last;
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        do {
          last = area.sessions().get(s.id());
          if (last.status().awaitingInput() && last.status().choice() != null) {
            return last;
          }
          Thread.sleep(50);
        } while (System.nanoTime() < end);
        throw new AssertionError("no question while the cost lookup hangs; last: " + last);
      }, "the terminal waited for the cost lookup");
      // the answer goes in and what the stand-in draws next is read: the PTY's thread is not stuck
      area.sessions().answer(asking.id(), 1);
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        while (!String.join("\n", area.sessions().terminal(s.id()).orElseThrow().screen().lines()).contains("Using SQLite.")) {
          Thread.sleep(50);
        }
      }, "the terminal's output waited for the cost lookup");
      assertThat(area.json(area.sessions().get(s.id())).cost_usd()).as("not known yet: the lookup still hangs").isNull();

      release.countDown();
      AgentJson priced = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        while (true) {
          AgentJson j = area.json(area.sessions().get(s.id()));
          if (j.cost_usd() != null) {
            return j;
          }
          Thread.sleep(50);
        }
      });
      assertThat(priced.cost_usd()).isEqualTo(0.25);
      area.sessions().stop(s.id());
    }
  }
}
