package dev.agentdesk.transcripts.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ParseAheadTest {

  @Test
  void aProducerWaitsWhileTheQueuedBytesWouldPassTheLimit() throws Exception {
    ParseAhead<String> q = new ParseAhead<>(100);
    q.put("a", 60);
    CountDownLatch putDone = new CountDownLatch(1);
    Thread producer = new Thread(() -> {
      try {
        q.put("b", 50);
        putDone.countDown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    producer.start();
    // 60 + 50 > 100: the second put cannot finish until the first item is taken
    assertThat(putDone.await(200, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(q.bytes()).isEqualTo(60);
    assertThat(q.take()).isEqualTo("a");
    assertThat(putDone.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(q.take()).isEqualTo("b");
    assertThat(q.bytes()).isZero();
    producer.join(10_000);
  }

  @Test
  void itemsThatFitTogetherAreQueuedWithoutWaitingAndComeOutInOrder() throws Exception {
    ParseAhead<Integer> q = new ParseAhead<>(100);
    for (int i = 0; i < 10; i++) {
      q.put(i, 10);
    }
    assertThat(q.bytes()).isEqualTo(100);
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      out.add(q.take());
    }
    assertThat(out).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  }

  @Test
  void anItemLargerThanTheLimitStillGoesWhenTheQueueIsEmpty() throws Exception {
    ParseAhead<String> q = new ParseAhead<>(100);
    q.put("huge line", 10_000);
    assertThat(q.bytes()).isEqualTo(10_000);
    assertThat(q.take()).isEqualTo("huge line");
  }

  @Test
  void waitingEndsWithTheThreadsInterrupt() throws Exception {
    ParseAhead<String> q = new ParseAhead<>(10);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread consumer = new Thread(() -> {
      try {
        q.take();
      } catch (InterruptedException e) {
        thrown.set(e);
      }
    });
    consumer.start();
    consumer.interrupt();
    consumer.join(10_000);
    assertThat(consumer.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
  }

  @Test
  void aLimitMustBePositive() {
    assertThatThrownBy(() -> new ParseAhead<String>(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
