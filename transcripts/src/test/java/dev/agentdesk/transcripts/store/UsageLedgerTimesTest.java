package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
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

  /** What {@link Instant#parse} makes of {@code t} in epoch milliseconds, null where it refuses. */
  private static Long byTheJdk(String t) {
    try {
      return Instant.parse(t).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  @Test
  void theHandReadFormAgreesWithTheJdkOnEveryInstantItReads() {
    Random random = new Random(32);
    int read = 0;
    for (int i = 0; i < 20_000; i++) {
      // instants from year 0 to 9999, with 0, 1, 3, 6 or 9 fraction digits
      long seconds = random.nextLong(-62_167_219_200L, 253_402_300_800L);
      Instant at = Instant.ofEpochSecond(seconds, random.nextInt(1_000_000_000));
      String iso = at.toString();  // the JDK's own form: its fraction is 0, 3, 6 or 9 digits
      int dot = iso.indexOf('.');
      String t = switch (i % 4) {
        case 0 -> iso;
        case 1 -> dot < 0 ? iso : iso.substring(0, dot) + "Z";
        case 2 -> dot < 0 ? iso : iso.substring(0, dot + 2) + "Z";
        default -> mutate(iso, random);
      };
      long hand = UsageLedger.utcMillis(t);
      Long jdk = byTheJdk(t);
      if (hand != Long.MIN_VALUE) {
        read++;
        assertThat(hand).as(t).isEqualTo(jdk);
      }
      if (jdk != null) {
        assertThat(UsageLedger.epochMillis(t)).as(t).isEqualTo(jdk);
      }
    }
    assertThat(read).isGreaterThan(14_000);
    for (String edge : new String[] {"2024-02-29T23:59:59.999Z", "2000-01-01T00:00:00Z", "1969-12-31T23:59:59.5Z",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"}) {
      assertThat(UsageLedger.utcMillis(edge)).as(edge).isEqualTo(byTheJdk(edge));
    }
    // not the plain form, or not a real time: left to the JDK's parsers
    for (String other : new String[] {"2023-02-29T00:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T23:59:60Z",
        "2026-03-01T10:30:00.Z", "2026-03-01t10:30:00z", "2026-03-01T10:30:00+01:00", "2026-3-01T10:30:00Z",
        "2026-03-01T10:30:00.1234567890Z", "+2026-03-01T10:30:00Z", "2026-03-01T10:3a:00Z"}) {
      assertThat(UsageLedger.utcMillis(other)).as(other).isEqualTo(Long.MIN_VALUE);
    }
    assertThat(UsageLedger.epochMillis("2026-03-01t10:30:00.250z")).isEqualTo(1772361000250L);
  }

  /** {@code t} with one character replaced, inserted or dropped. */
  private static String mutate(String t, Random random) {
    int at = random.nextInt(t.length());
    char c = "0123456789-:.TZ+x".charAt(random.nextInt(17));
    return switch (random.nextInt(3)) {
      case 0 -> t.substring(0, at) + c + t.substring(at + 1);
      case 1 -> t.substring(0, at) + c + t.substring(at);
      default -> t.substring(0, at) + t.substring(at + 1);
    };
  }
}
