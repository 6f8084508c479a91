package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;
import java.util.Set;

/** Entry point of the {@code agentdesk} launcher. */
public final class Main {
  /** Commands that run for long and log as they go (servers, sessions): their log lines carry the time. */
  private static final Set<String> LOGGING_COMMANDS = Set.of("serve", "runtime", "sandbox", "aci", "agent", "mcp",
      "term");

  private Main() {}

  public static void main(String[] args) {
    if (args.length > 0 && LOGGING_COMMANDS.contains(args[0])) {
      logTimes();
    }
    if (args.length > 0 && (args[0].equals("history") || args[0].equals("statusline"))) {
      warmLocaleData();
    }
    AgentdeskCommand.Invocation run = AgentdeskCommand.forArgs(args);
    System.exit(run.execute(null, null));
  }

  /**
   * The default locale's calendar data, read on a second thread while picocli builds the command:
   * the SQLite driver makes a date format for every connection, and the first one in a process
   * reads the locale providers' data (~25 ms of a short report's start). Whoever needs it first waits
   * for the other's read (the JDK's locale caches are thread-safe).
   */
  private static void warmLocaleData() {
    Thread t = new Thread(() -> {
      java.util.Calendar.getInstance();
      new java.text.DateFormatSymbols();
    }, "locale-data");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Log lines with the time of day (simplelogger.properties has the rest). Only where lines are
   * logged as a command runs: slf4j-simple makes its date format when its first logger is made,
   * whether or not it is used, and the locale data behind it is ~30 ms of a short report's start
   * (the SQLite driver makes a logger when it loads). Set on the command line, the user's choice wins.
   */
  static void logTimes() {
    if (System.getProperty("org.slf4j.simpleLogger.dateTimeFormat") == null) {
      System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
      System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss");
    }
  }
}
