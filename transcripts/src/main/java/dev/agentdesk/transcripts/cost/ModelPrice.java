package dev.agentdesk.transcripts.cost;

import java.util.List;

/**
 * One model's prices over time: periods in start order; a period applies from its start day (UTC,
 * inclusive) until the next one starts. The first period has no start and applies before any other.
 */
public record ModelPrice(String id, String provider, List<Period> periods) {
  /** Rates from {@code start} (null: from the beginning). */
  public record Period(String start, Rates rates) {}

  public ModelPrice {
    periods = List.copyOf(periods);
    if (periods.isEmpty()) {
      throw new IllegalArgumentException("model " + id + " has no prices");
    }
  }

  /** The rates on {@code day} (an ISO date, {@code YYYY-MM-DD}; null or blank: the latest rates). */
  public Rates at(String day) {
    if (day == null || day.isBlank()) {
      return periods.get(periods.size() - 1).rates();
    }
    Rates r = periods.get(0).rates();
    for (Period p : periods) {
      if (p.start() == null || p.start().compareTo(day) <= 0) {
        r = p.rates();
      }
    }
    return r;
  }
}
