package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class BundledSchemaTest {
  @Test
  void bundledSchemaIsByteIdenticalToTheSharedContract() throws Exception {
    byte[] shared = Files.readAllBytes(SharedCorpus.require("spec/aci.schema.json"));
    assertThat(WireContract.schemaBytes()).isEqualTo(shared);
  }

  @Test
  void bundledSchemaIsDraft202012WithTheExpectedId() {
    var schema = WireCodec.parse(new String(WireContract.schemaBytes(), java.nio.charset.StandardCharsets.UTF_8));
    assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(schema.path("$id").asText()).isEqualTo(WireContract.SCHEMA_ID);
  }
}
