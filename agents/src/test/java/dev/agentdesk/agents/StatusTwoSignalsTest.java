package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentStatus.Evidence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two signals on a real PTY: the claude stand-in shows a "?" line and then runs a tool in
 * silence (the terminal heuristic raises a false question after 10 s; the transcript's pending
 * Bash call clears it); after the next prompt it ends its turn with a real question (the
 * heuristic raises it; the transcript's end of turn confirms it). The parser raises at most one
 * heuristic question per input turn, hence the second prompt. About 30 s: the parser's silence
 * window is 10 s.
 */
class StatusTwoSignalsTest {
  @TempDir Path tmp;

  /** One observation from the event stream. */
  record Seen(long atNanos, boolean terminalAwaiting, boolean awaiting, String question, Evidence evidence,
      boolean cleared) {}

  @Test
  void theTranscriptClearsAFalseQuestionAndConfirmsARealOne() throws Exception {
    Standins standins = new Standins(tmp);
    TestRepo repo = TestRepo.create(tmp, "demo");
    List<Seen> seen = new CopyOnWriteArrayList<>();
    try (AgentSessions sessions = AgentSessions.open(standins.config(tmp))) {
      sessions.addListener(e -> {
        if (e instanceof AgentEvent.Changed c && c.session().terminal() != null) {
          AgentSession s = c.session();
          seen.add(new Seen(System.nanoTime(), s.terminal().awaitingInput(), s.status().awaitingInput(),
              s.status().question(), s.status().evidence(), s.status().clearedByTranscript()));
        }
      });
      long start = System.nanoTime();
      AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("two").withPrompt("refactor")
          .withEnv("STANDIN_SCENARIO", "two-signals"));
      Standins.await("the end of the first turn", Duration.ofSeconds(30), () -> {
        AgentSession x = sessions.get(s.id());
        return x.transcript() != null && contains(x.transcript().path(), "Checks pass.");
      });
      sessions.send(s.id(), "and now?");
      try {
        Standins.await("the confirmed question", Duration.ofSeconds(30), () -> {
          AgentSession x = sessions.get(s.id());
          return x.status().awaitingInput() && x.status().question() != null
              && x.status().question().contains("pull request");
        });
      } catch (AssertionError e) {
        // It has timed out about once in six full runs; say what the session looked like, to find why.
        AgentSession x = sessions.get(s.id());
        throw new AssertionError(e.getMessage() + "; status " + x.status() + "; terminal " + x.terminal()
            + "; transcript " + (x.transcript() == null ? null : java.nio.file.Files.readString(x.transcript().path()))
            + "; last events " + seen.subList(Math.max(0, seen.size() - 8), seen.size())
            + "\nscreen:\n" + sessions.terminal(s.id()).map(t -> String.join("\n", t.screen().lines())).orElse("-")
            + "\nthreads:\n" + ptyThreads(), e);
      }
      AgentSession confirmed = sessions.get(s.id());
      assertThat(confirmed.status().evidence()).isEqualTo(Evidence.TERMINAL_CONFIRMED);

      // the terminal alone said "awaiting" during the silent tool run; the combined status never did
      assertThat(seen).anySatisfy(x -> {
        assertThat(x.terminalAwaiting()).isTrue();
        assertThat(x.cleared()).isTrue();
        assertThat(x.awaiting()).isFalse();
      });
      assertThat(seen).noneSatisfy(x -> {
        assertThat(x.awaiting()).isTrue();
        assertThat(x.question()).contains("deprecated alias");
      });
      double terminalFalseMs = falseAwaitingMs(seen, true);
      double combinedFalseMs = falseAwaitingMs(seen, false);
      System.out.printf("two-signals: false awaiting by the terminal alone %.0f ms, combined %.0f ms (%.1f s run)%n",
          terminalFalseMs, combinedFalseMs, (System.nanoTime() - start) / 1e9);
      assertThat(terminalFalseMs).isGreaterThan(1000);
      assertThat(combinedFalseMs).isZero();
    }
  }

  /** The stacks of the PTY threads (readers, the shared ticker), to see what held the timers up. */
  private static String ptyThreads() {
    StringBuilder b = new StringBuilder();
    Thread.getAllStackTraces().forEach((t, stack) -> {
      if (t.getName().startsWith("pty-")) {
        b.append(t.getName()).append(' ').append(t.getState()).append('\n');
        for (StackTraceElement e : java.util.Arrays.copyOf(stack, Math.min(stack.length, 14))) {
          b.append("    at ").append(e).append('\n');
        }
      }
    });
    return b.toString();
  }

  private static boolean contains(Path file, String text) {
    try {
      return java.nio.file.Files.readString(file).contains(text);
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /** Time an awaiting state (terminal's or combined) held before the real question appeared. */
  private static double falseAwaitingMs(List<Seen> seen, boolean terminal) {
    long total = 0;
    Long since = null;
    for (Seen x : seen) {
      boolean realQuestion = x.question() != null && x.question().contains("pull request");
      boolean on = (terminal ? x.terminalAwaiting() : x.awaiting()) && !realQuestion;
      if (realQuestion) {
        if (since != null) {
          total += x.atNanos() - since;
        }
        break;
      }
      if (on && since == null) {
        since = x.atNanos();
      } else if (!on && since != null) {
        total += x.atNanos() - since;
        since = null;
      }
    }
    return total / 1e6;
  }
}
