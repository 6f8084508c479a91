package dev.agentdesk.app.serve;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a request to {@code /api} or {@code /ws} may proceed.
 *
 * <ul>
 *   <li>With a token, every call must carry it: {@code Authorization: Bearer T}, or {@code
 *       ?token=T} where a browser cannot set headers (WebSocket, image and download links).
 *   <li>On a loopback bind the {@code Host} header must name loopback, so a web page on another
 *       site cannot reach the API through DNS rebinding.
 *   <li>A request that carries an {@code Origin} must come from the dashboard's own origin, so a
 *       page on another site cannot open a terminal WebSocket and type into it.
 * </ul>
 */
final class AccessGuard {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  /** SHA-256 of the token, computed once; empty when no token is required. */
  private final Optional<byte[]> tokenDigest;
  private final boolean loopbackOnly;

  AccessGuard(Optional<String> token, boolean loopbackOnly) {
    this.tokenDigest = token.map(AccessGuard::sha256);
    this.loopbackOnly = loopbackOnly;
  }

  /** The request as the guard sees it. */
  record Request(String host, String origin, String authorization, String queryToken) {}

  /** Throws a {@link ServeException} (401 or 403) when the request may not proceed. */
  void check(Request r) {
    if (loopbackOnly && !isLoopbackHost(r.host())) {
      throw new ServeException(ServeException.Reason.FORBIDDEN,
          "this server listens on loopback only and does not answer for host '" + r.host() + "'");
    }
    if (r.origin() != null && !r.origin().equals("null") && !sameOrigin(r.origin(), r.host())) {
      throw new ServeException(ServeException.Reason.FORBIDDEN,
          "cross-origin request from " + r.origin() + " refused");
    }
    if (tokenDigest.isPresent()) {
      String given = presentedToken(r);
      if (given == null) {
        throw new ServeException(ServeException.Reason.UNAUTHORIZED,
            "this server requires a token: send 'Authorization: Bearer TOKEN' or '?token=TOKEN'");
      }
      if (!tokenMatches(given)) {
        throw new ServeException(ServeException.Reason.UNAUTHORIZED, "wrong token");
      }
    }
  }

  /**
   * Compares fixed-length SHA-256 digests in constant time, as the ACI runtime does: comparing the
   * raw bytes would take time proportional to the secret's length, and a length mismatch is an
   * easy early exit for any future edit. Here neither the token's content nor its length shows.
   */
  boolean tokenMatches(String presented) {
    return presented != null && tokenDigest.isPresent() && MessageDigest.isEqual(tokenDigest.get(), sha256(presented));
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static String presentedToken(Request r) {
    String auth = r.authorization();
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return auth.substring(7).trim();
    }
    if (r.queryToken() != null && !r.queryToken().isEmpty()) {
      return r.queryToken();
    }
    return null;
  }

  static boolean isLoopbackHost(String hostHeader) {
    if (hostHeader == null) {
      return false;
    }
    return LOOPBACK_HOSTS.contains(hostName(hostHeader).toLowerCase(Locale.ROOT));
  }

  /** The host part of a Host header: {@code [::1]:7420} → {@code [::1]}, {@code a:1} → {@code a}. */
  static String hostName(String hostHeader) {
    String h = hostHeader.trim();
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? h : h.substring(0, end + 1);
    }
    int colon = h.lastIndexOf(':');
    return colon < 0 ? h : h.substring(0, colon);
  }

  private static boolean sameOrigin(String origin, String hostHeader) {
    if (hostHeader == null) {
      return false;
    }
    try {
      URI o = URI.create(origin);
      if (o.getHost() == null) {
        return false;
      }
      String authority = o.getRawAuthority();
      return authority != null && authority.equalsIgnoreCase(hostHeader.trim());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
