package dev.agentdesk.transcripts.store;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Database URLs in messages: a URL may carry a password, which no message may show. */
final class JdbcUrls {
  private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)([?&;]password=)([^&;]*)");

  private JdbcUrls() {}

  /** {@code url} with the value of its password parameter hidden. */
  static String redacted(String url) {
    return PASSWORD_PARAM.matcher(url).replaceAll("$1***");
  }

  /** {@code message} with the URL redacted and the password itself hidden wherever it was quoted. */
  static String withoutPassword(String message, String url) {
    String out = message.replace(url, redacted(url));
    Matcher m = PASSWORD_PARAM.matcher(url);
    while (m.find()) {
      String password = m.group(2);
      if (!password.isEmpty()) {
        out = out.replace(password, "***");
        try {
          out = out.replace(URLDecoder.decode(password, StandardCharsets.UTF_8), "***");
        } catch (IllegalArgumentException notEncoded) {
          // a stray '%': the raw value was hidden above
        }
      }
    }
    return out;
  }
}
