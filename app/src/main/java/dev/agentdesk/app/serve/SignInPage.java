package dev.agentdesk.app.serve;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;

/**
 * The 401 page a browser gets without a valid token: it says where the token is and takes it in a
 * form (a GET to the same page, which the guard answers with the cookie and a redirect without
 * the token). Self-contained, because the dashboard's own files need the token too: one inline
 * style allowed by its hash, no script.
 */
final class SignInPage {
  private static final String STYLE = "body{font:15px/1.5 system-ui,sans-serif;background:#0d1117;color:#e6edf3;"
      + "margin:0}main{max-width:44rem;margin:4rem auto;padding:0 1.5rem}code{background:#161b22;padding:.1em .3em;"
      + "border-radius:4px}.why{color:#ff7b72}input{font:inherit;padding:.3em;width:24rem;max-width:100%}"
      + "button{font:inherit;padding:.3em .8em}.muted{color:#8b949e;font-size:13px}";
  /** The page's Content-Security-Policy: nothing loads, nothing runs, the form posts only here. */
  static final String CSP = "default-src 'none'; style-src 'sha256-" + sha256Base64(STYLE)
      + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private SignInPage() {}

  /** The page for a refused request to {@code path}; {@code why} is the guard's reason. */
  static String html(String why, String path, Optional<Path> tokenFile) {
    String action = AccessGuard.withoutToken(path, null);
    StringBuilder b = new StringBuilder(2048);
    b.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<meta name=\"referrer\" content=\"no-referrer\">")
        .append("<title>agentdesk: token needed</title><style>").append(STYLE).append("</style></head>\n<body><main>")
        .append("<h1>This agentdesk server needs its token</h1>\n")
        .append("<p class=\"why\" id=\"why\">").append(escape(why)).append("</p>\n")
        .append("<p>Open the link that <code>agentdesk serve</code> printed when it started; it ends in ")
        .append("<code>/?token=…</code>.");
    tokenFile.ifPresent(f -> b.append(" The token is also in <code id=\"token-file\">").append(escape(f.toString()))
        .append("</code> on the machine that runs the server (<code>cat ").append(escape(f.toString()))
        .append("</code>), readable by its owner only."));
    b.append("</p>\n<form method=\"get\" action=\"").append(escape(action)).append("\">")
        .append("<label>Token <input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"off\" autofocus></label> ")
        .append("<button type=\"submit\">Open the dashboard</button></form>\n")
        .append("<p class=\"muted\">Once accepted, this browser keeps a sign-in cookie for this server (HttpOnly,")
        .append(" this site only) and the token leaves the address bar.</p>\n</main></body></html>\n");
    return b.toString();
  }

  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  private static String sha256Base64(String s) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
