package dev.agentdesk.transcripts.assemble;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SegmentedStringWriter;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The session detail JSON (documented in docs/session-detail.md). Field order is fixed and the
 * output is compact, so equal details are byte-equal.
 */
public final class DetailJson {
  // Characters outside the BMP as 4-byte UTF-8, not as escaped surrogate pairs: the bytes must be
  // the text document's UTF-8 encoding exactly.
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  private DetailJson() {}

  public static String write(SessionDetail d) {
    // A segmented buffer: a detail runs to megabytes, and a StringWriter would copy it while growing
    // (and synchronise every append).
    SegmentedStringWriter sw = new SegmentedStringWriter(FACTORY._getBufferRecycler());
    try (JsonGenerator g = FACTORY.createGenerator(sw)) {
      document(g, d);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return sw.getAndClear();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The same document as UTF-8 bytes, for a server that sends it: no String (two bytes per
   * character while it is built) to encode afterwards.
   */
  public static byte[] writeUtf8(SessionDetail d) {
    try (ByteArrayBuilder out = new ByteArrayBuilder(FACTORY._getBufferRecycler());
        JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      document(g, d);
      g.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void document(JsonGenerator g, SessionDetail d) throws IOException {
    g.writeStartObject();
    g.writeFieldName("session");
    header(g, d.session());
    g.writeArrayFieldStart("entries");
    for (DetailEntry e : d.entries()) {
      entry(g, e);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void header(JsonGenerator g, SessionDetail.Header h) throws IOException {
    g.writeStartObject();
    str(g, "id", h.id());
    str(g, "source", h.source());
    str(g, "title", h.title());
    str(g, "project", h.project());
    str(g, "cwd", h.cwd());
    str(g, "git_branch", h.gitBranch());
    str(g, "version", h.version());
    str(g, "started_at", h.startedAt());
    str(g, "ended_at", h.endedAt());
    g.writeNumberField("message_count", h.messageCount());
    str(g, "parent_session_id", h.parentSessionId());
    str(g, "agent_type", h.agentType());
    usage(g, h.usage());
    str(g, "permission_mode", h.permissionMode());
    recordedCost(g, h.recordedCost());
    g.writeEndObject();
  }

  /** {@code recorded_cost_usd} (the agent's own figure, null when it records none) and its parts. */
  private static void recordedCost(JsonGenerator g, RecordedCost c) throws IOException {
    if (c == null) {
      g.writeNullField("recorded_cost_usd");
      g.writeNullField("recorded_cost");
      return;
    }
    g.writeNumberField("recorded_cost_usd", c.totalUsd());
    g.writeObjectFieldStart("recorded_cost");
    num(g, "api_duration_ms", c.apiDurationMs());
    num(g, "retry_ms", c.retryMs());
    num(g, "wall_duration_ms", c.wallDurationMs());
    g.writeBooleanField("partial", c.partial());
    g.writeArrayFieldStart("models");
    for (RecordedCost.ModelCost m : c.models()) {
      g.writeStartObject();
      str(g, "model", m.model());
      if (m.costUsd() == null) {
        g.writeNullField("cost_usd");
      } else {
        g.writeNumberField("cost_usd", m.costUsd());
      }
      g.writeNumberField("input_tokens", m.input());
      g.writeNumberField("output_tokens", m.output());
      g.writeNumberField("cache_read_tokens", m.cacheRead());
      g.writeNumberField("cache_creation_tokens", m.cacheCreation());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  static void usage(JsonGenerator g, TokenUsage u) throws IOException {
    g.writeObjectFieldStart("usage");
    g.writeNumberField("input_tokens", u.input());
    g.writeNumberField("output_tokens", u.output());
    g.writeNumberField("cache_read_tokens", u.cacheRead());
    g.writeNumberField("cache_creation_tokens", u.cacheCreation());
    g.writeEndObject();
  }

  private static void entry(JsonGenerator g, DetailEntry e) throws IOException {
    g.writeStartObject();
    if (e instanceof DetailEntry.Message m) {
      str(g, "type", "message");
      str(g, "uuid", m.uuid());
      str(g, "role", m.role());
      str(g, "timestamp", m.timestamp());
      str(g, "text", m.text());
      str(g, "content_type", m.contentType());
      g.writeBooleanField("is_meta", m.isMeta());
      str(g, "model", m.model());
    } else if (e instanceof DetailEntry.Thinking t) {
      str(g, "type", "thinking");
      str(g, "uuid", t.uuid());
      str(g, "timestamp", t.timestamp());
      str(g, "text", t.text());
      str(g, "model", t.model());
    } else if (e instanceof DetailEntry.ToolCall c) {
      str(g, "type", "tool_call");
      str(g, "id", c.id());
      str(g, "name", c.name());
      str(g, "presentation", c.presentation());
      str(g, "timestamp", c.timestamp());
      str(g, "file_path", c.filePath());
      g.writeFieldName("input");
      if (c.inputJson() == null) {
        g.writeNull();
      } else {
        g.writeRawValue(c.inputJson());
      }
      g.writeFieldName("result");
      if (c.result() == null) {
        g.writeNull();
      } else {
        g.writeStartObject();
        str(g, "content", c.result().content());
        g.writeBooleanField("is_error", c.result().isError());
        g.writeEndObject();
      }
      g.writeFieldName("subagent");
      if (c.subagent() == null) {
        g.writeNull();
      } else {
        DetailEntry.Subagent s = c.subagent();
        g.writeStartObject();
        str(g, "agent_id", s.agentId());
        str(g, "type", s.type());
        str(g, "description", s.description());
        num(g, "duration_ms", s.durationMs());
        num(g, "total_tokens", s.totalTokens());
        str(g, "session_id", s.sessionId());
        // The subagent's thread when it was written into this session's file (empty otherwise).
        g.writeArrayFieldStart("entries");
        for (DetailEntry inner : s.entries()) {
          entry(g, inner);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeFieldName("workflow");
      if (c.workflow() == null) {
        g.writeNull();
      } else {
        DetailEntry.Workflow w = c.workflow();
        g.writeStartObject();
        str(g, "run_id", w.runId());
        str(g, "task_id", w.taskId());
        str(g, "status", w.status());
        num(g, "duration_ms", w.durationMs());
        num(g, "total_tokens", w.totalTokens());
        g.writeArrayFieldStart("agents");
        for (DetailEntry.WorkflowAgent a : w.agents()) {
          g.writeStartObject();
          str(g, "agent_id", a.agentId());
          str(g, "type", a.type());
          str(g, "description", a.description());
          str(g, "status", a.status());
          num(g, "duration_ms", a.durationMs());
          num(g, "total_tokens", a.totalTokens());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
    } else if (e instanceof DetailEntry.Summary s) {
      str(g, "type", "summary");
      str(g, "id", s.id());
      str(g, "text", s.text());
      str(g, "leaf_uuid", s.leafUuid());
    }
    g.writeEndObject();
  }

  private static void str(JsonGenerator g, String name, String value) throws IOException {
    if (value == null) {
      g.writeNullField(name);
    } else {
      g.writeStringField(name, value);
    }
  }

  private static void num(JsonGenerator g, String name, Long value) throws IOException {
    if (value == null) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, value);
    }
  }
}
