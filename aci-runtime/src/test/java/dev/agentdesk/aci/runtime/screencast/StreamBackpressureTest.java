package dev.agentdesk.aci.runtime.screencast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.Verb;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A transport that stops taking frames must not make a stream hold more than one: the frames built
 * meanwhile replace each other in the single pending slot and the client sees the seq gap. The
 * frame source here paints a different pixel per tick (the protocol test covers real captures).
 */
class StreamBackpressureTest {
  private static FrameSource counting() {
    int[] n = {0};
    return (scope, edge) -> {
      byte[] rgb = new byte[64 * 64 * 3];
      int i = n[0]++;
      rgb[3 * (i % 4096)] = (byte) (1 + i / 4096);
      return new RgbImage(64, 64, rgb);
    };
  }

  @Test
  void aBlockedTransportHoldsOneFrameAndTheNextCarriesTheGap() throws Exception {
    CountDownLatch firstSendStarted = new CountDownLatch(1);
    List<Runnable> unwritten = new CopyOnWriteArrayList<>();
    List<ObservationMsg> sent = new CopyOnWriteArrayList<>();
    ExecutorService sender = Executors.newSingleThreadExecutor();
    try {
      // the transport takes frames but writes none until released: a client that stopped reading
      Stream s = new Stream("bp", StreamSettings.of(Action.builder(Verb.START_SCREENCAST).delta(true).build(), 2576),
          counting(), (msg, written) -> {
            sent.add(msg);
            unwritten.add(written);
            firstSendStarted.countDown();
            return true;
          }, sender);
      s.tick();
      assertThat(firstSendStarted.await(5, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 500; i++) {
        s.tick(); // the transport is stuck in its first send: every new frame replaces the parked one
      }
      assertThat(s.dropped()).isEqualTo(499);
      assertThat(sent).as("nothing more is handed over while the first frame is unwritten").hasSize(1);
      unwritten.get(0).run(); // the socket drains
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (sent.size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      unwritten.get(1).run();
      sender.shutdown();
      assertThat(sender.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
      assertThat(sent).extracting(ObservationMsg::seq).containsExactly(0L, 500L);
      assertThat(sent.get(0).image()).as("the keyframe").isNotNull();
      assertThat(sent.get(1).tiles()).as("the survivor is a delta against the delivered keyframe").hasSize(1);
    } finally {
      sender.shutdownNow();
    }
  }

  @Test
  void aFrameTheConnectionRefusesIsRetriedAndDeltasFollowWhatTheClientHas() throws Exception {
    List<ObservationMsg> sent = new CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean full = new java.util.concurrent.atomic.AtomicBoolean(true);
    ExecutorService sender = Executors.newSingleThreadExecutor();
    try {
      Stream s = new Stream("rf", StreamSettings.of(Action.builder(Verb.START_SCREENCAST).delta(true).build(), 2576),
          counting(), (msg, written) -> {
            if (full.get()) {
              return false;
            }
            sent.add(msg);
            written.run();
            return true;
          }, sender);
      for (int i = 0; i < 3; i++) {
        s.tick();
        Thread.sleep(20);
      }
      assertThat(sent).as("a full connection gets nothing").isEmpty();
      full.set(false);
      s.tick();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (sent.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(sent).hasSize(1);
      assertThat(sent.get(0).image()).as("nothing was delivered before: the survivor is a keyframe").isNotNull();
      assertThat(sent.get(0).seq()).as("the refused frames are the gap").isEqualTo(3L);
    } finally {
      sender.shutdownNow();
    }
  }

  @Test
  void nothingIsSentAfterStop() throws Exception {
    List<ObservationMsg> sent = new CopyOnWriteArrayList<>();
    ExecutorService sender = Executors.newSingleThreadExecutor();
    try {
      Stream s = new Stream("st", StreamSettings.of(Action.builder(Verb.START_SCREENCAST).build(), 2576), counting(),
          (msg, written) -> {
            sent.add(msg);
            written.run();
            return true;
          }, sender);
      s.tick();
      s.stop();
      int before = sent.size();
      s.tick();
      sender.shutdown();
      assertThat(sender.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
      assertThat(sent).hasSize(before);
    } finally {
      sender.shutdownNow();
    }
  }

  @Test
  void fpsDefaultsToFive() {
    assertThat(StreamSettings.of(Action.builder(Verb.START_SCREENCAST).build(), 2576).fps()).isEqualTo(5.0);
  }
}
