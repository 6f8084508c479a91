package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code history usage}: token totals, each model response counted once. */
@Command(name = "usage", mixinStandardHelpOptions = true,
    description = "Token totals by day, session, model or provider; each model response is counted once.")
public final class HistoryUsageCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Option(names = "--by", defaultValue = "day", paramLabel = "day|session|model|provider",
      description = "Grouping (default ${DEFAULT-VALUE})", converter = GroupingConverter.class)
  UsageGrouping by;

  @Option(names = "--json", description = "Print JSON")
  boolean json;

  /** Case-insensitive day|session|model. */
  static final class GroupingConverter implements CommandLine.ITypeConverter<UsageGrouping> {
    @Override
    public UsageGrouping convert(String value) {
      try {
        return UsageGrouping.valueOf(value.toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException("expected day, session, model or provider, not '" + value + "'");
      }
    }
  }

  @Override
  public Integer call() throws Exception {
    List<UsageRow> rows = HistorySupport.withHistory(db, parent, h -> h.usage(by));
    TokenUsage total = rows.stream().map(UsageRow::usage).reduce(TokenUsage.ZERO, TokenUsage::plus);
    long responses = rows.stream().mapToLong(UsageRow::responses).sum();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode o = m.createObjectNode();
      o.put("by", by.name().toLowerCase(java.util.Locale.ROOT));
      ArrayNode a = o.putArray("rows");
      for (UsageRow r : rows) {
        put(a.addObject().put("key", r.key()).put("responses", r.responses()), r.usage());
      }
      put(o.putObject("total").put("responses", responses), total);
      out.println(m.writeValueAsString(o));
    } else {
      out.printf("%-28s %9s %14s %14s %16s %16s%n", by.name().toLowerCase(java.util.Locale.ROOT), "responses",
          "input", "output", "cache read", "cache creation");
      for (UsageRow r : rows) {
        line(out, r.key(), r.responses(), r.usage());
      }
      line(out, "total", responses, total);
    }
    out.flush();
    return 0;
  }

  private static void put(ObjectNode o, TokenUsage u) {
    o.put("input_tokens", u.input()).put("output_tokens", u.output()).put("cache_read_tokens", u.cacheRead())
        .put("cache_creation_tokens", u.cacheCreation());
  }

  private static void line(PrintWriter out, String key, long responses, TokenUsage u) {
    out.printf("%-28s %9d %14d %14d %16d %16d%n", HistorySupport.shorten(key, 28), responses, u.input(), u.output(),
        u.cacheRead(), u.cacheCreation());
  }
}
