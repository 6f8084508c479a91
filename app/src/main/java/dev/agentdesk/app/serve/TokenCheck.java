package dev.agentdesk.app.serve;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server's token and the dashboard cookie derived from it, each checked in constant time.
 *
 * <p>Both sides of a comparison are SHA-256 digests compared with {@link MessageDigest#isEqual}:
 * comparing the raw strings would take time proportional to the common prefix, and a length
 * mismatch is an easy early exit for any later edit. Digests have one length, so neither where a
 * wrong token differs nor how long it is shows in the time.
 *
 * <p>The cookie is an HMAC of a fixed label under the token, not the token: the browser's cookie
 * store never holds the secret the CLI sends, and a new token makes every old cookie worthless.
 */
final class TokenCheck {
  private static final String COOKIE_LABEL = "agentdesk dashboard cookie v1";

  private final byte[] tokenDigest;
  private final String cookieValue;
  private final byte[] cookieDigest;

  TokenCheck(String token) {
    this.tokenDigest = sha256(token);
    this.cookieValue = hmac(token, COOKIE_LABEL);
    this.cookieDigest = sha256(cookieValue);
  }

  boolean tokenMatches(String presented) {
    return presented != null && MessageDigest.isEqual(tokenDigest, sha256(presented));
  }

  boolean cookieMatches(String presented) {
    return presented != null && MessageDigest.isEqual(cookieDigest, sha256(presented));
  }

  /** What the dashboard's cookie holds. */
  String cookieValue() {
    return cookieValue;
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static String hmac(String key, String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has HmacSHA256", e);
    }
  }
}
