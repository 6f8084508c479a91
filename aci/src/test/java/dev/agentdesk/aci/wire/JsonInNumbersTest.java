package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.DoubleNode;
import dev.agentdesk.aci.WireException;
import com.fasterxml.jackson.databind.node.LongNode;
import org.junit.jupiter.api.Test;

/**
 * Integers on the wire: an overflowing number ("1e999" reads as an infinite double) is a typed
 * wire error, never Jackson's NumberFormatException (found by the garbage-frame property test).
 */
class JsonInNumbersTest {
  @Test
  void anInfiniteNumberWhereAnIntegerBelongsIsAWireError() {
    for (double d : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN}) {
      assertThatThrownBy(() -> JsonIn.integerValue(new DoubleNode(d), "$.width")).isInstanceOf(WireException.class)
          .hasMessageContaining("$.width");
    }
    assertThat(JsonIn.integerValue(new DoubleNode(640.0), "$.width")).isEqualTo(640);
    assertThat(JsonIn.integerValue(new LongNode(7), "$.width")).isEqualTo(7);
  }
}
