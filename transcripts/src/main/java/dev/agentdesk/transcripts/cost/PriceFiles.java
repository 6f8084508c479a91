package dev.agentdesk.transcripts.cost;

import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptException.Reason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a user's prices live: {@code $XDG_CONFIG_HOME/agentdesk/} (default {@code ~/.config/agentdesk/})
 * holds {@code prices.json}, a whole table installed by {@code agentdesk prices update} that replaces
 * the bundled one, and {@code price-overrides.json}, the user's own prices, looked up first. A file
 * that cannot be used is a warning: the report goes on with the prices that can.
 */
public final class PriceFiles {
  public static final String TABLE = "prices.json";
  public static final String OVERRIDES = "price-overrides.json";

  /** The table to price with and what was wrong on the way to it. */
  public record Loaded(PriceTable table, List<String> warnings) {
    public Loaded {
      warnings = List.copyOf(warnings);
    }
  }

  private final Path dir;

  public PriceFiles(Path dir) {
    this.dir = dir;
  }

  /** The folder from the environment ({@code XDG_CONFIG_HOME}, else {@code ~/.config}), plus {@code agentdesk}. */
  public static PriceFiles fromEnvironment() {
    String xdg = System.getenv("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
    return new PriceFiles(base.resolve("agentdesk"));
  }

  public Path tableFile() {
    return dir.resolve(TABLE);
  }

  public Path overridesFile() {
    return dir.resolve(OVERRIDES);
  }

  /** The installed table (else the bundled one) with the overrides, if any; never fails on a bad file. */
  public Loaded load() {
    List<String> warnings = new ArrayList<>();
    PriceTable table = null;
    if (Files.exists(tableFile())) {
      try {
        table = PriceTable.parse(Files.readAllBytes(tableFile()), tableFile().toString());
      } catch (IOException | TranscriptException e) {
        warnings.add("ignoring the price table " + tableFile() + " (" + message(e) + "); using the bundled one");
      }
    }
    if (table == null) {
      table = PriceTable.bundled();
    }
    if (Files.exists(overridesFile())) {
      try {
        table = table.withOverrides(PriceTable.parseOverrides(Files.readAllBytes(overridesFile()),
            overridesFile().toString()));
      } catch (IOException | TranscriptException e) {
        warnings.add("ignoring the price overrides " + overridesFile() + " (" + message(e) + ")");
      }
    }
    return new Loaded(table, warnings);
  }

  /**
   * Checks {@code source} as a price table and installs it as {@link #tableFile()} (written beside
   * and moved into place, so a failed copy leaves the old table).
   *
   * @throws TranscriptException {@code BAD_PRICE_FILE} if it is not a usable table (nothing is changed)
   */
  public PriceTable install(Path source) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(source);
    } catch (IOException e) {
      throw new TranscriptException(Reason.BAD_PRICE_FILE, "cannot read " + source + ": " + e.getMessage(), e);
    }
    PriceTable table = PriceTable.parse(bytes, source.toString());
    try {
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, "prices", ".tmp");
      Files.write(tmp, bytes);
      Files.move(tmp, tableFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new TranscriptException(Reason.BAD_PRICE_FILE, "cannot write " + tableFile() + ": " + e, e);
    }
    return table;
  }

  private static String message(Exception e) {
    return e instanceof TranscriptException ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
