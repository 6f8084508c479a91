package dev.agentdesk.app.serve;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The file that holds the server's token ({@code $XDG_DATA_HOME/agentdesk/token} by default).
 * {@code serve} reads it, or creates it with a new token; clients ({@link ServerClient}) only read
 * it. The file is readable by its owner alone from the moment it exists: it is written as a
 * private temporary file and then linked into place, so no reader ever sees it half-written or
 * with wider permissions, and two servers starting at once agree on one token.
 */
public final class TokenFile {
  /** 256 random bits, base64url without padding: 43 characters. */
  private static final int TOKEN_BYTES = 32;
  static final int MIN_LENGTH = 16;
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_DIR =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
  private static final SecureRandom RANDOM = new SecureRandom();

  private TokenFile() {}

  /** A token as read or made; {@code note} says what happened to the file, for the banner. */
  public record Loaded(String token, Path file, Optional<String> note) {}

  /** A token file that cannot be used; the message says what to do. */
  public static final class TokenFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TokenFileException(String message) {
      super(message);
    }

    TokenFileException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The default place: {@code token} in {@link DataDirs#dataDir}. */
  public static Path defaultPath(Map<String, String> env, Path home) {
    return DataDirs.dataDir(env, home).resolve("token");
  }

  /**
   * The token in {@code file}; a new one when the file is missing, empty or unreadable (the note
   * says which). Refuses a file that other users can read (the token may be known) and one that
   * holds something that is not a token (it might be something else of the user's).
   */
  public static Loaded readOrCreate(Path file) {
    Path target = file.toAbsolutePath();
    if (Files.notExists(target, LinkOption.NOFOLLOW_LINKS)) {
      return create(target).orElseGet(() -> read(target, true));
    }
    return read(target, true);
  }

  /** The token in {@code file}, for a client: never creates or replaces the file. */
  public static String read(Path file) {
    return read(file.toAbsolutePath(), false).token();
  }

  private static Loaded read(Path file, boolean mayReplace) {
    String content;
    try {
      checkPrivate(file);
      content = Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (NoSuchFileException e) {
      throw new TokenFileException("there is no token file at " + file
          + ": 'agentdesk serve' creates it when it starts (with the same XDG_DATA_HOME or --token-file)", e);
    } catch (AccessDeniedException e) {
      if (mayReplace) {
        return replace(file, "could not be read");
      }
      throw new TokenFileException("cannot read the token file " + file + " (permission denied)", e);
    } catch (IOException e) {
      throw new TokenFileException("cannot read the token file " + file + ": " + describe(e), e);
    }
    if (content.isEmpty()) {
      if (mayReplace) {
        return replace(file, "was empty");
      }
      throw new TokenFileException("the token file " + file + " is empty: restart 'agentdesk serve' to write a new token");
    }
    String problem = problem(content);
    if (problem != null) {
      throw new TokenFileException("the token file " + file + " does not hold a token (" + problem
          + "); delete it and 'agentdesk serve' writes a new one");
    }
    return new Loaded(content, file, Optional.empty());
  }

  /** Why {@code token} cannot be a token, or null when it can. */
  static String problem(String token) {
    if (token.length() < MIN_LENGTH) {
      return "a token has at least " + MIN_LENGTH + " characters";
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= ' ' || c > '~') {
        return "a token is visible ASCII without spaces";
      }
    }
    return null;
  }

  /** A new random token. */
  public static String generate() {
    byte[] bytes = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static void checkPrivate(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      if (!Files.exists(file)) {
        throw new NoSuchFileException(file.toString());
      }
      throw new TokenFileException("the token file " + file + " is not a regular file");
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
    if (perms.stream().anyMatch(OTHERS::contains)) {
      throw new TokenFileException("the token file " + file + " can be read or changed by other users (mode "
          + PosixFilePermissions.toString(perms) + "), so its token may be known: run 'chmod 600 " + file
          + "', or delete the file and 'agentdesk serve' writes a new token");
    }
  }

  private static Loaded replace(Path file, String why) {
    String token = generate();
    Path tmp = writePrivateTemp(file, token);
    try {
      // rename(2) replaces the old file in one step: a reader sees the old file or the new one.
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new TokenFileException("the token file " + file + " " + why + ", and a new token could not be written there: "
          + describe(e), e);
    }
    return new Loaded(token, file, Optional.of(why + "; new token written, mode 0600"));
  }

  /** Creates {@code file} with a new token; empty when another process created it first. */
  private static Optional<Loaded> create(Path file) {
    String token = generate();
    Path tmp = writePrivateTemp(file, token);
    try {
      // link(2) fails when the name exists, so of two servers starting at once one token wins.
      Files.createLink(file, tmp);
    } catch (FileAlreadyExistsException e) {
      return Optional.empty();
    } catch (UnsupportedOperationException | FileSystemException e) {
      if (e instanceof FileSystemException fse && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      // A file system without hard links: a plain rename, which could replace a file made in the
      // moment since the check above; both tokens are then new and one of them is on disk.
      try {
        Files.move(tmp, file);
      } catch (FileAlreadyExistsException again) {
        return Optional.empty();
      } catch (IOException io) {
        throw new TokenFileException("cannot write the token file " + file + ": " + describe(io), io);
      }
    } catch (IOException e) {
      throw new TokenFileException("cannot write the token file " + file + ": " + describe(e), e);
    } finally {
      deleteQuietly(tmp);
    }
    return Optional.of(new Loaded(token, file, Optional.of("new token, mode 0600")));
  }

  private static Path writePrivateTemp(Path file, String token) {
    Path dir = file.getParent();
    try {
      // Only folders made here get 0700; an existing folder keeps its mode (the file is 0600).
      Files.createDirectories(dir, OWNER_ONLY_DIR);
      Path tmp = dir.resolve("." + file.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
      try (FileChannel ch = FileChannel.open(tmp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          OWNER_ONLY_FILE)) {
        ByteBuffer bytes = ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining()) {
          ch.write(bytes);
        }
        ch.force(true);
      }
      return tmp;
    } catch (IOException e) {
      throw new TokenFileException("cannot write the token file " + file + ": " + describe(e), e);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // A leftover temporary file holds a token nobody uses and is readable by its owner only.
    }
  }

  private static String describe(IOException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + " " + e.getMessage();
  }
}
