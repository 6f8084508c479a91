package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireCodecTest {
  private static WireException decodeFails(String json) {
    try {
      WireCodec.decode(json);
    } catch (WireException e) {
      return e;
    }
    throw new AssertionError("decoded without error: " + json);
  }

  @Test
  void decodesAClickActionIntoTypedRecords() {
    AciMessage m = WireCodec.decode(
        "{\"type\":\"action\",\"call_id\":\"c1\",\"action\":{\"verb\":\"click\",\"target\":{\"kind\":\"point_px\",\"x\":10,\"y\":20.5}}}");
    assertThat(m).isEqualTo(new ActionMsg("c1", Action.click(new Target.PointPx(10, 20.5))));
  }

  @Test
  void encodingOmitsAbsentOptionalFields() {
    String json = WireCodec.encode(new ActionMsg("c", Action.typeText("hi")));
    assertThat(json).isEqualTo("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"type_text\",\"text\":\"hi\"}}");
    assertThat(WireCodec.encode(Ack.ok("c"))).isEqualTo("{\"type\":\"ack\",\"call_id\":\"c\",\"ok\":true}");
    assertThat(WireCodec.encode(new Ping(null))).isEqualTo("{\"type\":\"ping\"}");
  }

  @Test
  void integralNumbersAreWrittenAsIntegers() {
    assertThat(WireCodec.encode(Action.click(new Target.PointPx(644.0, -3.0))))
        .isEqualTo("{\"verb\":\"click\",\"target\":{\"kind\":\"point_px\",\"x\":644,\"y\":-3}}");
    assertThat(WireCodec.encode(new Ping(2.5))).isEqualTo("{\"type\":\"ping\",\"t\":2.5}");
    assertThat(WireCodec.encode(new Ping(-0.0))).isEqualTo("{\"type\":\"ping\",\"t\":-0.0}");
    assertThat(WireCodec.decode(WireCodec.encode(new Ping(-0.0)))).isEqualTo(new Ping(-0.0));
  }

  @Test
  void execExitWritesANullExitCodeButOmitsAnAbsentSignal() {
    String json = WireCodec.encode(new ExecExitMsg("x", null, null, true, 12.5, false, null));
    assertThat(json).isEqualTo(
        "{\"type\":\"exec_exit\",\"cause\":\"x\",\"exit_code\":null,\"timed_out\":true,\"duration_ms\":12.5,\"truncated\":false}");
    assertThat(WireContract.bundled().validate("#", json)).isEmpty();
    assertThat(WireCodec.decode(json)).isEqualTo(new ExecExitMsg("x", null, null, true, 12.5, false, null));
  }

  @Test
  void unknownFieldIsAnErrorThatNamesTheField() {
    WireException e = decodeFails(
        "{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"click\",\"target\":{\"kind\":\"point_px\",\"x\":1,\"y\":2,\"z\":3}}}");
    assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_FIELD);
    assertThat(e.path()).isEqualTo("/action/target/z");
    assertThat(e.getMessage()).contains("\"z\"");
  }

  @Test
  void everyDecodeFailureHasAMachineReadableReasonAndPath() {
    assertThat(decodeFails("{not json").reason()).isEqualTo(Reason.MALFORMED_JSON);
    assertThat(decodeFails("{\"type\":\"ping\"} trailing").reason()).isEqualTo(Reason.MALFORMED_JSON);
    assertThat(decodeFails("{\"type\":\"ping\",\"t\":1,\"t\":2}").reason()).isEqualTo(Reason.MALFORMED_JSON);
    assertThat(decodeFails("[1]").reason()).isEqualTo(Reason.WRONG_TYPE);
    assertThat(decodeFails("{}").reason()).isEqualTo(Reason.MISSING_FIELD);
    assertThat(decodeFails("{\"type\":\"nonsense\"}").reason()).isEqualTo(Reason.UNKNOWN_TYPE);
    WireException v = decodeFails("{\"type\":\"hello\",\"v\":1,\"client\":{\"name\":\"a\",\"version\":\"1\"}}");
    assertThat(v.reason()).isEqualTo(Reason.UNSUPPORTED_VERSION);
    assertThat(v.path()).isEqualTo("/v");
    WireException t = decodeFails("{\"type\":\"ack\",\"call_id\":\"c\",\"ok\":\"yes\"}");
    assertThat(t.reason()).isEqualTo(Reason.WRONG_TYPE);
    assertThat(t.path()).isEqualTo("/ok");
    WireException q = decodeFails("{\"type\":\"query\",\"call_id\":\"c\",\"q\":\"healthz\"}");
    assertThat(q.reason()).isEqualTo(Reason.INVALID_VALUE);
    assertThat(q.path()).isEqualTo("/q");
    WireException r = decodeFails("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"drag\","
        + "\"target\":{\"kind\":\"point_px\",\"x\":1,\"y\":2}}}");
    assertThat(r.reason()).isEqualTo(Reason.RULE_VIOLATION);
    assertThat(r.path()).isEqualTo("/action/to");
  }

  @Test
  void nullIsNotAbsent() {
    WireException e = decodeFails("{\"type\":\"ack\",\"call_id\":\"c\",\"ok\":true,\"error\":null}");
    assertThat(e.reason()).isEqualTo(Reason.WRONG_TYPE);
    assertThat(e.path()).isEqualTo("/error");
  }

  @Test
  void constructorsEnforceTheSameRulesAsTheDecoder() {
    assertThatThrownBy(() -> Action.builder(Verb.EXEC).argv(List.of("ls")).shell("ls").build())
        .isInstanceOfSatisfying(WireException.class, e -> assertThat(e.reason()).isEqualTo(Reason.RULE_VIOLATION));
    assertThatThrownBy(() -> Action.builder(Verb.SCREENSHOT).observe(ObserveSpec.DEFAULTS).build())
        .isInstanceOfSatisfying(WireException.class, e -> assertThat(e.path()).isEqualTo("/observe"));
    assertThatThrownBy(() -> new Target.PointNorm(1.5, 0))
        .isInstanceOfSatisfying(WireException.class, e -> assertThat(e.reason()).isEqualTo(Reason.INVALID_VALUE));
    assertThatThrownBy(() -> ObservationMsg.builder("o").notModified(true).frameHash("h").build())
        .isInstanceOfSatisfying(WireException.class, e -> assertThat(e.path()).isEqualTo("/cause"));
  }

  @Test
  void resultValueIsOpenJsonAndExecResultDecodesFromIt() {
    var value = JsonNodeFactory.instance.objectNode().put("exit_code", 3).put("timed_out", false)
        .put("stdout", "out").put("stderr", "").put("stdout_truncated", false).put("stderr_truncated", false)
        .put("duration_ms", 4);
    Result r = (Result) WireCodec.decode(WireCodec.encode(Result.ok("c", value)));
    ExecResult exec = WireCodec.decodeAs(ExecResult.class, r.value());
    assertThat(exec).isEqualTo(new ExecResult(3L, null, false, "out", "", false, false, 4.0));
  }

  @Test
  void scopeKeepsItsSpellingAndParsesTheWindowId() {
    Scope hex = Scope.parse("window:0x1A");
    assertThat(hex.kind()).isEqualTo(Scope.Kind.WINDOW);
    assertThat(hex.windowId()).isEqualTo(java.math.BigInteger.valueOf(26));
    assertThat(hex.wire()).isEqualTo("window:0x1A");
    assertThatThrownBy(() -> Scope.parse("window:")).isInstanceOf(WireException.class);
    assertThatThrownBy(() -> Scope.parse("region")).isInstanceOf(WireException.class);
  }

  @Test
  void contractCheckReportsTheDiscriminatedBranch() {
    var node = WireCodec.parse("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"click\",\"bogus\":1}}");
    assertThatThrownBy(() -> WireContract.bundled().check("#", node))
        .isInstanceOfSatisfying(WireException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.SCHEMA_VIOLATION);
          assertThat(e.path()).isEqualTo("/action");
        });
  }
}
