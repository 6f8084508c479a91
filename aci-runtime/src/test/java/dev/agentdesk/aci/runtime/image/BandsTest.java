package dev.agentdesk.aci.runtime.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Bands read memory their caller frees as soon as {@link Bands#run} returns (an XImage, a shared
 * segment), so no band may still run after it returns — not when the caller is interrupted, not
 * when another band failed.
 */
class BandsTest {
  /**
   * More bands than the caller's own one whatever the core count: bands beyond the pool's threads
   * queue for it, so even on one core (a pool of one) two bands run off the calling thread.
   */
  private static final int BANDS = 3;

  @Test
  void anInterruptedCallerStillWaitsForEveryBandAndKeepsItsInterrupt() throws Exception {
    AtomicInteger finished = new AtomicInteger();
    CompletableFuture<int[]> seen = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      Thread self = Thread.currentThread();
      List<Integer> out = Bands.run(400, BANDS, (index, first, last) -> {
        if (index == 0) {
          self.interrupt(); // the session closes while its capture converts pixels
          return 0;
        }
        sleep(300);
        finished.incrementAndGet();
        return index;
      });
      seen.complete(new int[] {finished.get(), out.size(), Thread.currentThread().isInterrupted() ? 1 : 0});
    });
    caller.start();
    int[] r = seen.get(10, TimeUnit.SECONDS);
    assertThat(r[0]).as("pool bands finished before run returned").isEqualTo(BANDS - 1);
    assertThat(r[1]).isEqualTo(BANDS);
    assertThat(r[2]).as("interrupt flag kept").isEqualTo(1);
  }

  @Test
  void aFailingBandIsRethrownOnlyAfterTheOthersFinished() {
    AtomicInteger finished = new AtomicInteger();
    assertThatThrownBy(() -> Bands.run(400, BANDS, (index, first, last) -> {
      if (index == 0) {
        throw new IllegalArgumentException("band 0 failed");
      }
      sleep(200);
      return finished.incrementAndGet();
    })).hasMessage("band 0 failed");
    assertThat(finished.get()).isEqualTo(BANDS - 1);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
