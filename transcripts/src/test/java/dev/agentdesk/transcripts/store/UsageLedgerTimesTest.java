package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A response's time as the ledger stores it: read in every form the agents write, none from damage. */
class UsageLedgerTimesTest {
  @Test
  void instantsOffsetsAndZoneNamesAreRead() {
    assertThat(UsageLedger.epochMillis("2026-03-01T10:30:00.250Z")).isEqualTo(1772361000250L);
    assertThat(UsageLedger.epochMillis("2026-03-01T11:30:00.250+01:00")).isEqualTo(1772361000250L);
    assertThat(UsageLedger.epochMillis("2026-03-01T11:30:00.250+01:00[Europe/Paris]")).isEqualTo(1772361000250L);
  }

  @Test
  void aDamagedOrFarOutTimestampHasNoTimeAndThrowsNothing() {
    // Instant parses the year +999999999, but it has no epoch milliseconds: the import must go on
    assertThat(UsageLedger.epochMillis("+999999999-12-31T00:00:00Z")).isNull();
    assertThat(UsageLedger.epochMillis("-999999999-01-01T00:00:00Z")).isNull();
    assertThat(UsageLedger.epochMillis("yesterday")).isNull();
    assertThat(UsageLedger.epochMillis("2026-13-01T00:00:00Z")).isNull();
    assertThat(UsageLedger.epochMillis("")).isNull();
    assertThat(UsageLedger.epochMillis(null)).isNull();
  }
}
