package dev.agentdesk.aci.runtime.screencast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StreamRegistryTest {
  private long now;
  private final StreamRegistry registry = new StreamRegistry(() -> now);

  @Test
  void anEntryIsResumedOnceWithinItsTtl() {
    registry.park("a", 7);
    now += TimeUnit.SECONDS.toNanos(StreamRegistry.TTL_SECONDS);
    assertThat(registry.claim("a")).isEqualTo(OptionalLong.of(7));
    assertThat(registry.claim("a")).as("claimed already").isEmpty();
  }

  @Test
  void anExpiredEntryIsGone() {
    registry.park("a", 7);
    now += TimeUnit.SECONDS.toNanos(StreamRegistry.TTL_SECONDS) + 1;
    assertThat(registry.claim("a")).isEmpty();
  }

  @Test
  void theOldestEntryGoesWhenTheRegistryIsFull() {
    for (int i = 0; i <= StreamRegistry.MAX_ENTRIES; i++) {
      registry.park("s" + i, i);
    }
    assertThat(registry.claim("s0")).isEmpty();
    assertThat(registry.claim("s1")).isEqualTo(OptionalLong.of(1));
    assertThat(registry.claim("s" + StreamRegistry.MAX_ENTRIES)).isEqualTo(OptionalLong.of(StreamRegistry.MAX_ENTRIES));
  }
}
