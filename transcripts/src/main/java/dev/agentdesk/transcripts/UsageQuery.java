package dev.agentdesk.transcripts;

import java.time.LocalDate;
import java.time.ZoneId;

/**
 * What a usage report covers and how it groups: one query behind the CLI, the API and MCP. The
 * filters keep responses (not rows), so every grouping's total is the sum of the rows shown.
 *
 * @param zone the time zone of days, weeks, months and of {@code since}/{@code until}
 * @param since only responses on or after this day (in {@code zone}), or null
 * @param until only responses on or before this day (in {@code zone}), or null
 * @param project only sessions whose project name equals this, or null
 * @param provider only sessions of this agent, or null
 * @param session only this session (a full id or an unambiguous prefix), or null
 * @param model only responses of this model (as the transcript names it), or null
 * @param breakdown also per-model rows inside each row ({@link UsageReport#breakdown()})
 * @param descending rows in descending key order (newest period first)
 * @param mode which cost {@code costUsd} is ({@link CostMode}); {@code CALCULATE} unless set: the
 *     commands, the API and MCP default to {@code AUTO} as ccusage does, library callers that want
 *     agentdesk's own figure (an agent's cost, the status line) keep the calculated one
 */
public record UsageQuery(UsageGrouping by, ZoneId zone, LocalDate since, LocalDate until, String project,
    Provider provider, String session, String model, boolean breakdown, boolean descending, CostMode mode) {

  public UsageQuery {
    if (by == null || zone == null || mode == null) {
      throw new IllegalArgumentException("a usage query needs a grouping, a time zone and a cost mode");
    }
  }

  public UsageQuery(UsageGrouping by, ZoneId zone, LocalDate since, LocalDate until, String project,
      Provider provider, String session, String model, boolean breakdown, boolean descending) {
    this(by, zone, since, until, project, provider, session, model, breakdown, descending, CostMode.CALCULATE);
  }

  public UsageQuery mode(CostMode m) {
    return new UsageQuery(by, zone, since, until, project, provider, session, model, breakdown, descending, m);
  }

  /** Everything, grouped by {@code by}, days in UTC. */
  public static UsageQuery of(UsageGrouping by) {
    return new UsageQuery(by, java.time.ZoneOffset.UTC, null, null, null, null, null, null, false, false,
        CostMode.CALCULATE);
  }

  public UsageQuery zone(ZoneId z) {
    return new UsageQuery(by, z, since, until, project, provider, session, model, breakdown, descending, mode);
  }

  public UsageQuery between(LocalDate from, LocalDate to) {
    return new UsageQuery(by, zone, from, to, project, provider, session, model, breakdown, descending, mode);
  }

  public UsageQuery project(String p) {
    return new UsageQuery(by, zone, since, until, p, provider, session, model, breakdown, descending, mode);
  }

  public UsageQuery provider(Provider p) {
    return new UsageQuery(by, zone, since, until, project, p, session, model, breakdown, descending, mode);
  }

  public UsageQuery session(String id) {
    return new UsageQuery(by, zone, since, until, project, provider, id, model, breakdown, descending, mode);
  }

  public UsageQuery model(String m) {
    return new UsageQuery(by, zone, since, until, project, provider, session, m, breakdown, descending, mode);
  }

  public UsageQuery breakdown(boolean b) {
    return new UsageQuery(by, zone, since, until, project, provider, session, model, b, descending, mode);
  }

  public UsageQuery descending(boolean d) {
    return new UsageQuery(by, zone, since, until, project, provider, session, model, breakdown, d, mode);
  }

  /**
   * A day as the options give it: {@code 20261101} or {@code 2026-11-01}.
   *
   * @throws IllegalArgumentException naming the expected forms
   */
  public static LocalDate parseDate(String text) {
    String t = text.trim();
    try {
      return t.matches("\\d{8}") ? LocalDate.parse(t, java.time.format.DateTimeFormatter.BASIC_ISO_DATE)
          : LocalDate.parse(t);
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("expected a day as YYYYMMDD or YYYY-MM-DD, not '" + text + "'");
    }
  }

  /**
   * A time zone by its name ({@code Europe/Berlin}, {@code UTC}, {@code +02:00}).
   *
   * @throws IllegalArgumentException naming the expected forms
   */
  public static ZoneId parseZone(String text) {
    try {
      return ZoneId.of(text.trim());
    } catch (java.time.DateTimeException e) {
      throw new IllegalArgumentException("expected a time zone such as Europe/Berlin, UTC or +02:00, not '" + text
          + "'");
    }
  }

  /** Whether days in {@link #zone} are UTC days (then the stored per-day aggregates answer). */
  boolean utcDays() {
    return zone.getRules().isFixedOffset() && zone.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds() == 0;
  }
}
