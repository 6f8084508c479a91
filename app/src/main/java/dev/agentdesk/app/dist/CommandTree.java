package dev.agentdesk.app.dist;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The visible command model the completions and man pages are generated from: every command that is
 * neither hidden nor picocli's {@code help}, depth first, with its path of names from the root.
 */
final class CommandTree {
  /** One command: {@code path} is its names below the root ({@code [history, sessions]}; empty for the root). */
  record Node(List<String> path, CommandSpec spec, List<String> children) {
    String joined() {
      return String.join(" ", path);
    }

    List<OptionSpec> options() {
      return spec.options().stream().filter(o -> !o.hidden()).toList();
    }

    String description() {
      String[] d = spec.usageMessage().description();
      return d.length == 0 ? "" : d[0].strip();
    }
  }

  private CommandTree() {}

  static List<Node> walk(CommandLine root) {
    List<Node> out = new ArrayList<>();
    walk(root, List.of(), out);
    return out;
  }

  private static void walk(CommandLine cl, List<String> path, List<Node> out) {
    List<String> children = new ArrayList<>();
    List<CommandLine> subs = new ArrayList<>();
    Map<CommandLine, Boolean> seen = new IdentityHashMap<>();
    for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
      CommandLine sub = e.getValue();
      if (seen.put(sub, Boolean.TRUE) != null || visible(sub) == false) {
        continue; // an alias of one already listed, or hidden
      }
      children.add(sub.getCommandName());
      subs.add(sub);
    }
    out.add(new Node(path, cl.getCommandSpec(), children));
    for (CommandLine sub : subs) {
      List<String> p = new ArrayList<>(path);
      p.add(sub.getCommandName());
      walk(sub, List.copyOf(p), out);
    }
  }

  private static boolean visible(CommandLine cl) {
    return !cl.getCommandSpec().usageMessage().hidden() && !cl.getCommandName().equals("help");
  }

  /** Whether an option takes a value (not a flag). */
  static boolean takesValue(OptionSpec o) {
    return o.arity().max() > 0;
  }

  /** Whether an option's value is a file or folder. */
  static boolean isPath(OptionSpec o) {
    Class<?> t = o.type();
    return t == java.nio.file.Path.class || t == java.io.File.class;
  }
}
