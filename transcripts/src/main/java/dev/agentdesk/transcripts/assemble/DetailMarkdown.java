package dev.agentdesk.transcripts.assemble;

import dev.agentdesk.transcripts.records.RecordedCost;
import java.util.Locale;

/** A readable Markdown rendering of session detail (for {@code history show --markdown}). */
public final class DetailMarkdown {
  private static final int RESULT_LIMIT = 2000;

  private DetailMarkdown() {}

  /** The agent's own cost line: its total, each model's share, and the API time lost to retries. */
  static String recordedCost(RecordedCost c) {
    StringBuilder sb = new StringBuilder("- recorded cost (the agent's own figure): ").append(usd(c.totalUsd()));
    if (c.partial()) {
      sb.append('+');
    }
    if (!c.models().isEmpty()) {
      sb.append(" (");
      for (int i = 0; i < c.models().size(); i++) {
        RecordedCost.ModelCost m = c.models().get(i);
        sb.append(i == 0 ? "" : ", ").append(m.model()).append(' ')
            .append(m.costUsd() == null ? "no cost" : usd(m.costUsd()));
      }
      sb.append(')');
    }
    if (c.apiDurationMs() != null) {
      sb.append("; API time ").append(seconds(c.apiDurationMs()));
      if (c.retryMs() != null && c.retryMs() > 0) {
        sb.append(", of which retries ").append(seconds(c.retryMs()));
      }
    }
    return sb.toString();
  }

  private static String usd(double v) {
    return v >= 1 ? String.format(Locale.ROOT, "$%,.2f", v) : String.format(Locale.ROOT, "$%.4f", v);
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  public static String write(SessionDetail d) {
    StringBuilder sb = new StringBuilder();
    SessionDetail.Header h = d.session();
    sb.append("# ").append(h.title() == null ? h.id() : h.title()).append("\n\n");
    sb.append("- session: `").append(h.id()).append("` (").append(h.source()).append(")\n");
    if (h.cwd() != null) {
      sb.append("- cwd: `").append(h.cwd()).append("`");
      if (h.gitBranch() != null) {
        sb.append(" on `").append(h.gitBranch()).append('`');
      }
      sb.append('\n');
    }
    sb.append("- time: ").append(h.startedAt()).append(" → ").append(h.endedAt()).append('\n');
    sb.append("- messages: ").append(h.messageCount()).append("; tokens: input ").append(h.usage().input())
        .append(", output ").append(h.usage().output()).append(", cache read ").append(h.usage().cacheRead())
        .append(", cache creation ").append(h.usage().cacheCreation()).append('\n');
    if (h.recordedCost() != null) {
      sb.append(recordedCost(h.recordedCost())).append('\n');
    }
    if (h.permissionMode() != null) {
      sb.append("- permission mode: ").append(h.permissionMode()).append('\n');
    }
    sb.append('\n');
    for (DetailEntry e : d.entries()) {
      if (e instanceof DetailEntry.Message m) {
        sb.append("## ").append(m.role());
        if (m.isMeta()) {
          sb.append(" · ").append(m.contentType());
        }
        if (m.timestamp() != null) {
          sb.append(" · ").append(m.timestamp());
        }
        sb.append("\n\n").append(m.text() == null ? "" : m.text()).append("\n\n");
      } else if (e instanceof DetailEntry.Thinking t) {
        sb.append("> *thinking*");
        if (t.text() == null) {
          sb.append(" (not stored in clear)\n\n");
        } else {
          sb.append("\n>\n> ").append(t.text().replace("\n", "\n> ")).append("\n\n");
        }
      } else if (e instanceof DetailEntry.ToolCall c) {
        sb.append("### tool: ").append(c.name() == null ? "(unknown call)" : c.name()).append(" [")
            .append(c.presentation()).append("]\n\n");
        if (c.inputJson() != null) {
          sb.append("```json\n").append(c.inputJson()).append("\n```\n\n");
        }
        if (c.subagent() != null) {
          sb.append("subagent `").append(c.subagent().agentId()).append("`");
          if (c.subagent().type() != null) {
            sb.append(" (").append(c.subagent().type()).append(')');
          }
          sb.append("\n\n");
        }
        if (c.result() != null) {
          String content = c.result().content() == null ? "" : c.result().content();
          if (content.length() > RESULT_LIMIT) {
            content = content.substring(0, RESULT_LIMIT) + "\n… (" + (content.length() - RESULT_LIMIT)
                + " more characters)";
          }
          sb.append(c.result().isError() ? "result (error):\n\n" : "result:\n\n").append("```\n").append(content)
              .append("\n```\n\n");
        }
      } else if (e instanceof DetailEntry.Summary s) {
        sb.append("> **summary:** ").append(s.text()).append("\n\n");
      }
    }
    return sb.toString();
  }
}
