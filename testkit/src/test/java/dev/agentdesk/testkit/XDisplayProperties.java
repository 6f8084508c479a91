package dev.agentdesk.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class XDisplayProperties {
  @Property
  void numberRoundTripsThroughTheDisplayName(@ForAll @IntRange(min = 0, max = 65535) int n) {
    assertThat(new XDisplay(":" + n, 1, 1).number()).isEqualTo(n);
  }
}
