package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's native library copied once into the user's cache, and the driver's name for the
 * platform remembered beside it: finding that name starts a process ({@code uname -o}), which a
 * status line must not pay on every start.
 */
class SqliteNativeTest {
  private static final String LIB = System.mapLibraryName("sqlitejdbc");

  @Test
  void thePlatformIsDetectedOnceAndTheLibraryIsTheJarsCopy(@TempDir Path cache) throws IOException {
    AtomicInteger detections = new AtomicInteger();
    Supplier<String> detect = () -> {
      detections.incrementAndGet();
      return org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS();
    };
    Path first = SqliteNative.cached(Map.of("XDG_CACHE_HOME", cache.toString()), detect);
    Path again = SqliteNative.cached(Map.of("XDG_CACHE_HOME", cache.toString()), detect);

    assertThat(detections).hasValue(1);
    assertThat(again).isEqualTo(first);
    assertThat(first).startsWith(cache.resolve("agentdesk/sqlite-native")).hasFileName(LIB);
    String folder = org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS();
    try (InputStream jar = SqliteNative.class.getResourceAsStream("/org/sqlite/native/" + folder + "/" + LIB)) {
      assertThat(Files.readAllBytes(first)).isEqualTo(jar.readAllBytes());
    }
    try (var left = Files.walk(cache)) {
      assertThat(left.filter(p -> p.toString().endsWith(".tmp"))).as("no half-written file left").isEmpty();
    }
  }

  @Test
  void aDamagedRememberedPlatformIsDetectedAgainAndNeverLeadsOutOfTheCache(@TempDir Path cache) throws IOException {
    Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString());
    String real = org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS();
    Path lib = SqliteNative.cached(env, () -> real);
    Path remembered;
    try (var files = Files.list(lib.getParent().getParent())) {
      remembered = files.filter(p -> p.getFileName().toString().startsWith("platform-")).findFirst().orElseThrow();
    }
    Files.writeString(remembered, "../../../etc/x86_64");
    AtomicInteger detections = new AtomicInteger();
    assertThat(SqliteNative.cached(env, () -> {
      detections.incrementAndGet();
      return real;
    })).isEqualTo(lib);
    assertThat(detections).hasValue(1);
    assertThat(Files.readString(remembered)).isEqualTo(real);

    Files.delete(remembered);
    assertThatThrownBy(() -> SqliteNative.cached(env, () -> "../escape")).isInstanceOf(IOException.class)
        .hasMessageContaining("unexpected platform folder");
  }
}
