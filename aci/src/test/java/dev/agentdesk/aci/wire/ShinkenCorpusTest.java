package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A peer's view of the contract: the 225 messages of the reference SDK's own contract tests
 * (read in place from ../shared). The validator and the Java decoder must both agree with the
 * verdict of every one.
 */
class ShinkenCorpusTest {
  static List<ContractCase> cases() throws IOException {
    JsonNode all = WireCodec.parse(
        Files.readString(SharedCorpus.require("corpus/aci/shinken-contract-fixtures.json")));
    List<ContractCase> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      out.add(ContractCase.of("shinken#" + i, all.get(i)));
    }
    return out;
  }

  @Test
  void corpusHoldsAll225Messages() throws IOException {
    List<ContractCase> cases = cases();
    assertThat(cases).hasSize(225);
    assertThat(cases.stream().filter(ContractCase::valid)).hasSize(115);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validatorAgrees(ContractCase c) {
    List<WireContract.Violation> violations = WireContract.bundled().validate(c.validateAgainst(), c.message());
    if (c.valid()) {
      assertThat(violations).as("schema violations of a valid message").isEmpty();
    } else {
      assertThat(violations).as("schema violations of an invalid message").isNotEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void javaDecoderAgrees(ContractCase c) {
    if (c.valid()) {
      Object decoded = c.decode();
      // Re-encoding a valid message gives a message the schema also accepts and that decodes equal.
      JsonNode again = ContractCase.encode(decoded);
      assertThat(WireContract.bundled().validate(c.validateAgainst(), again)).isEmpty();
      assertThat(new ContractCase(c.name(), true, c.validateAgainst(), c.reason(), again).decode()).isEqualTo(decoded);
    } else {
      assertThatThrownBy(c::decode).isInstanceOf(WireException.class);
    }
  }
}
