package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token file on a real file system: made private, reused, replaced when empty, refused when exposed. */
class TokenFileTest {

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void theDefaultPlaceFollowsXdgDataHome(@TempDir Path home) {
    assertThat(TokenFile.defaultPath(Map.of(), home)).isEqualTo(home.resolve(".local/share/agentdesk/token"));
    assertThat(TokenFile.defaultPath(Map.of("XDG_DATA_HOME", "/data"), home)).isEqualTo(Path.of("/data/agentdesk/token"));
  }

  @Test
  void aMissingFileIsMadeOwnerOnlyInAnOwnerOnlyFolderAndThenReused(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("a/b/agentdesk/token");
    TokenFile.Loaded made = TokenFile.readOrCreate(file);
    assertThat(made.token()).hasSize(43).matches("[A-Za-z0-9_-]+");
    assertThat(made.note()).contains("new token, mode 0600");
    assertThat(Files.readString(file)).isEqualTo(made.token() + "\n");
    assertThat(mode(file)).isEqualTo("rw-------");
    assertThat(mode(file.getParent())).isEqualTo("rwx------");
    assertThat(mode(tmp.resolve("a"))).isEqualTo("rwx------");
    try (var files = Files.list(file.getParent())) {
      assertThat(files).as("no temporary file is left").containsExactly(file);
    }

    TokenFile.Loaded again = TokenFile.readOrCreate(file);
    assertThat(again.token()).isEqualTo(made.token());
    assertThat(again.note()).isEmpty();
    assertThat(TokenFile.read(file)).isEqualTo(made.token());
    assertThat(TokenFile.generate()).isNotEqualTo(made.token());
  }

  @Test
  void anExistingFolderKeepsItsMode(@TempDir Path tmp) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("shared"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    TokenFile.readOrCreate(dir.resolve("token"));
    assertThat(mode(dir)).isEqualTo("rwxr-xr-x");
    assertThat(mode(dir.resolve("token"))).isEqualTo("rw-------");
  }

  @Test
  void serversStartingAtOnceAgreeOnOneToken(@TempDir Path tmp) throws Exception {
    for (int round = 0; round < 5; round++) {
      Path file = tmp.resolve("round" + round + "/token");
      int n = 8;
      CyclicBarrier start = new CyclicBarrier(n);
      ExecutorService pool = Executors.newFixedThreadPool(n);
      try {
        List<Future<String>> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          got.add(pool.submit(() -> {
            start.await();
            return TokenFile.readOrCreate(file).token();
          }));
        }
        Set<String> tokens = new java.util.HashSet<>();
        for (Future<String> f : got) {
          tokens.add(f.get());
        }
        assertThat(tokens).as("round %d", round).containsExactly(Files.readString(file).strip());
        try (var files = Files.list(file.getParent())) {
          assertThat(files.map(Path::getFileName).map(Path::toString).collect(Collectors.toList())).containsExactly("token");
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void anEmptyFileGetsANewTokenWithANoteButAClientIsToldToRestartTheServer(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("token");
    Files.writeString(file, "  \n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThatThrownBy(() -> TokenFile.read(file)).isInstanceOf(TokenFile.TokenFileException.class)
        .hasMessageContaining("is empty");
    TokenFile.Loaded loaded = TokenFile.readOrCreate(file);
    assertThat(loaded.note()).contains("was empty; new token written, mode 0600");
    assertThat(Files.readString(file).strip()).isEqualTo(loaded.token());
    assertThat(mode(file)).isEqualTo("rw-------");
  }

  @Test
  void aFileOthersCanReadIsRefusedAndLeftAsItIs(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("token");
    Files.writeString(file, "0123456789abcdef0123456789\n");
    for (String open : List.of("rw-r--r--", "rw-r-----", "rw-----w-", "rw----r--")) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(open));
      assertThatThrownBy(() -> TokenFile.readOrCreate(file)).isInstanceOf(TokenFile.TokenFileException.class)
          .hasMessageContaining("can be read or changed by other users (mode " + open + ")")
          .hasMessageContaining("chmod 600 " + file);
      assertThatThrownBy(() -> TokenFile.read(file)).isInstanceOf(TokenFile.TokenFileException.class);
      assertThat(Files.readString(file)).isEqualTo("0123456789abcdef0123456789\n");
    }
  }

  @Test
  void somethingThatIsNotATokenIsRefusedNotOverwritten(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("token");
    Files.writeString(file, "my ssh key, perhaps\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThatThrownBy(() -> TokenFile.readOrCreate(file)).hasMessageContaining("does not hold a token");
    assertThat(Files.readString(file)).isEqualTo("my ssh key, perhaps\n");
    Path dir = Files.createDirectories(tmp.resolve("dir-token"));
    assertThatThrownBy(() -> TokenFile.readOrCreate(dir)).hasMessageContaining("is not a regular file");
  }

  @Test
  void aClientNeverMakesTheFile(@TempDir Path tmp) {
    Path file = tmp.resolve("agentdesk/token");
    assertThatThrownBy(() -> TokenFile.read(file)).isInstanceOf(TokenFile.TokenFileException.class)
        .hasMessageContaining("there is no token file at " + file)
        .hasMessageContaining("'agentdesk serve' creates it");
    assertThat(file.getParent()).doesNotExist();
  }
}
