package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.Visibility;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The packed field form: every value comes back as written, and damaged bytes are a typed error. */
class PackedTest {

  /** One value of a packed row: a string (maybe null, any code points), a long or a boolean. */
  private sealed interface Value permits Str, Lng, Bool {}

  private record Str(String v) implements Value {}

  private record Lng(long v) implements Value {}

  private record Bool(boolean v) implements Value {}

  @Provide
  Arbitrary<List<Value>> rows() {
    // Any Unicode text (every code point outside the surrogate range, pairs included); a lone
    // surrogate is not text and becomes '?' in UTF-8 in every column of the database alike.
    Arbitrary<String> text = Arbitraries.integers().between(0, Character.MAX_CODE_POINT)
        .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE).list().ofMaxSize(120)
        .map(cps -> new String(cps.stream().mapToInt(Integer::intValue).toArray(), 0, cps.size()));
    Arbitrary<Value> str = Arbitraries.oneOf(text, Arbitraries.strings().ascii().ofMaxLength(300)).injectNull(0.2)
        .map(Str::new);
    Arbitrary<Value> lng = Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 63L, -64L, 64L, 127L, 128L,
        16383L, 16384L).map(Lng::new);
    Arbitrary<Value> anyLng = Arbitraries.longs().map(Lng::new);
    Arbitrary<Value> bool = Arbitraries.of(true, false).map(Bool::new);
    return Arbitraries.oneOf(str, lng, anyLng, bool).list().ofMaxSize(40);
  }

  @Property
  void everyValueReadsBackAsWritten(@ForAll("rows") List<Value> row) {
    Packed.Out out = new Packed.Out().start();
    for (Value v : row) {
      if (v instanceof Str s) {
        out.str(s.v());
      } else if (v instanceof Lng l) {
        out.lng(l.v());
      } else if (v instanceof Bool b) {
        out.bool(b.v());
      }
    }
    Packed.In in = new Packed.In(out.toBytes(), "row", "r1");
    for (Value v : row) {
      if (v instanceof Str s) {
        assertThat(in.str()).isEqualTo(s.v());
      } else if (v instanceof Lng l) {
        assertThat(in.lng()).isEqualTo(l.v());
      } else if (v instanceof Bool b) {
        assertThat(in.bool()).isEqualTo(b.v());
      }
    }
  }

  @Property
  void aMessageRowCarriesEveryField(@ForAll("messages") MessageRecord m) {
    Object[] row = PackedRows.message(m.sessionId(), m.uuid(), m.text(),
        PackedRows.messageFields(new Packed.Out(), m));
    TokenUsage u = m.usage();
    assertThat(row).containsExactly(m.sessionId(), m.uuid(), m.parentUuid(), m.ordinal(), m.timestamp(), m.role(),
        m.text(), m.contentType(), m.isMeta() ? 1L : 0L, m.visibility().name(), m.model(), m.isSidechain() ? 1L : 0L,
        m.agentId(), m.responseId(), u == null ? 0L : 1L, u == null ? 0L : u.input(), u == null ? 0L : u.output(),
        u == null ? 0L : u.cacheRead(), u == null ? 0L : u.cacheCreation(), u == null ? 0L : u.cacheCreation1h());
  }

  @Provide
  Arbitrary<MessageRecord> messages() {
    Arbitrary<String> s = Arbitraries.strings().ofMaxLength(40);
    Arbitrary<String> maybe = s.injectNull(0.3);
    Arbitrary<TokenUsage> usage = Combinators.combine(Arbitraries.longs().greaterOrEqual(0),
        Arbitraries.longs().greaterOrEqual(0), Arbitraries.longs().greaterOrEqual(0),
        Arbitraries.longs().greaterOrEqual(0), Arbitraries.longs().greaterOrEqual(0))
        .as(TokenUsage::new).injectNull(0.4);
    Arbitrary<MessageRecord> fields = Combinators.combine(s, maybe, Arbitraries.longs(), maybe, s, maybe,
        Arbitraries.of(true, false), Arbitraries.of(Visibility.class)).as((uuid, parent, ordinal, time, role, text, meta,
            visibility) -> new MessageRecord("session", uuid, parent, ordinal, time, role, text, "text", meta,
            visibility, time, !meta, parent, text, null));
    return Combinators.combine(fields, usage).as((m, u) -> new MessageRecord(m.sessionId(), m.uuid(), m.parentUuid(),
        m.ordinal(), m.timestamp(), m.role(), m.text(), m.contentType(), m.isMeta(), m.visibility(), m.model(),
        m.isSidechain(), m.agentId(), m.responseId(), u));
  }

  @Example
  void aTruncatedRowIsADamagedRowNotAWrongValue() {
    byte[] whole = new Packed.Out().start().str("a string of some length").lng(Long.MIN_VALUE).toBytes();
    for (int len = 1; len < whole.length; len++) {
      Packed.In in = new Packed.In(Arrays.copyOf(whole, len), "message", "u7");
      assertThatThrownBy(() -> {
        in.str();
        in.lng();
      }).isInstanceOfSatisfying(TranscriptException.class,
          e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.STORE_FAILURE))
          .hasMessageContaining("message u7").hasMessageContaining("re-import");
    }
    assertThatThrownBy(() -> new Packed.In(new byte[0], "message", "u7"))
        .isInstanceOf(TranscriptException.class).hasMessageContaining("no packed fields");
  }

  @Example
  void aNewerFormatIsRefusedByName() {
    byte[] b = new Packed.Out().start().str("x").toBytes();
    b[0] = (byte) (Packed.VERSION + 1);
    assertThatThrownBy(() -> new Packed.In(b, "tool call", "toolu_1")).isInstanceOfSatisfying(
        TranscriptException.class, e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.SCHEMA_TOO_NEW))
        .hasMessageContaining("tool call toolu_1").hasMessageContaining("newer agentdesk");
  }
}
