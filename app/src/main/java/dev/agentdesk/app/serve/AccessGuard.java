package dev.agentdesk.app.serve;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * Decides whether a request may proceed; it runs before every route, static files included.
 *
 * <ul>
 *   <li>On a loopback bind the {@code Host} header must name loopback, so a web page on another
 *       site cannot reach the server through DNS rebinding.
 *   <li>A request that carries an {@code Origin} must come from the dashboard's own origin, so a
 *       page elsewhere (another port of this machine included) cannot call the API or open a
 *       terminal WebSocket and type into it. {@code Origin: null} (what a browser sends after a
 *       cross-origin redirect, from a sandboxed frame or a file) is refused like any other origin.
 *   <li>A request that changes anything (every method but GET, HEAD and OPTIONS, every WebSocket
 *       upgrade, everything on {@code /mcp}) is taken on the cookie only with an {@code Origin}
 *       equal to the dashboard's own: browsers send a host's cookies to every port of it and
 *       across redirects, so the cookie alone proves nothing about which page sent the request.
 *       Scripts and the CLI send the bearer token instead, which no page can attach.
 *   <li>A request body on the API must be {@code application/json} (415 otherwise): a page can
 *       send {@code text/plain} anywhere without asking, JSON only to its own origin.
 *   <li>With a token (the default, on every bind) each request carries {@code Authorization:
 *       Bearer T} or the dashboard cookie. A token in the URL is taken only by a page (not {@code
 *       /api}, not {@code /ws}): that first load is answered with the cookie and a redirect to the
 *       same URL without the token, so the token leaves the address bar, the history and every
 *       later request. URLs end up in logs, history and Referer headers; headers and cookies do
 *       not.
 * </ul>
 */
final class AccessGuard {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
  /** Thirty days: a bookmark keeps working; a new token ends every cookie at once. */
  static final int COOKIE_MAX_AGE_S = 30 * 24 * 3600;
  /** A path safe to put back in a Location header: no scheme, no second slash that names a host. */
  private static final Pattern SAFE_PATH = Pattern.compile("/(?![/\\\\])[A-Za-z0-9._~!$&'()*+,;=:@%/-]*");
  private static final Pattern SAFE_QUERY = Pattern.compile("[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*");

  private final Optional<TokenCheck> check;
  private final Optional<Path> tokenFile;
  private final boolean loopbackOnly;
  private final IntSupplier port;

  /**
   * @param port the port the server listens on, known once it started: the cookie's name carries
   *     it because browsers send a host's cookies to every port of that host
   */
  AccessGuard(ServeConfig.Access access, boolean loopbackOnly, IntSupplier port) {
    this.check = access instanceof ServeConfig.Access.Token t ? Optional.of(new TokenCheck(t.value())) : Optional.empty();
    // The file's path names its owner; only callers on this machine are told where it is.
    this.tokenFile = access instanceof ServeConfig.Access.Token t && loopbackOnly ? t.file() : Optional.empty();
    this.loopbackOnly = loopbackOnly;
    this.port = port;
  }

  /**
   * The request as the guard sees it; {@code cookie} is the value of {@link #cookieName()}.
   *
   * @param upgrade whether it asks for a WebSocket
   * @param contentType the {@code Content-Type} header, or null
   * @param hasBody whether it carries a body (a {@code Content-Length} above 0, or chunked)
   */
  record Request(String method, String path, String host, String origin, String authorization, String cookie,
      String queryToken, boolean upgrade, String contentType, boolean hasBody) {
    /** Everything but a plain read: any method but GET, HEAD, OPTIONS; an upgrade; MCP. */
    boolean changes() {
      return upgrade || !("GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method))
          || path.equals(MCP_PATH) || path.startsWith(MCP_PATH + "/");
    }
  }

  /** What to do with a request that may proceed. */
  sealed interface Verdict {
    /** Go on to the route. */
    record Proceed() implements Verdict {}

    /** A good token in a page's URL: set this cookie and send the browser to the URL without it. */
    record SignIn(String setCookieHeader) implements Verdict {}
  }

  /** Lets the request through, or throws a {@link ServeException} (401 or 403). */
  Verdict check(Request r) {
    if (loopbackOnly && !isLoopbackHost(r.host())) {
      throw new ServeException(ServeException.Reason.FORBIDDEN,
          "this server listens on loopback only and does not answer for host '" + r.host() + "'");
    }
    if (r.origin() != null && r.origin().trim().equals("null")) {
      throw new ServeException(ServeException.Reason.FORBIDDEN, "a request from an opaque origin ('Origin: null':"
          + " a redirect from another site, a sandboxed frame or a file) is refused");
    }
    if (r.origin() != null && !sameOrigin(r.origin(), r.host())) {
      throw new ServeException(ServeException.Reason.FORBIDDEN,
          "cross-origin request from " + r.origin() + " refused");
    }
    if (check.isEmpty()) {
      return requireJsonBody(r);
    }
    TokenCheck tokens = check.get();
    boolean page = !isApi(r.path());
    if (page && r.queryToken() != null && ("GET".equals(r.method()) || "HEAD".equals(r.method()))) {
      if (!tokens.tokenMatches(r.queryToken())) {
        throw unauthorized("That token is not this server's token.");
      }
      return new Verdict.SignIn(setCookieHeader(tokens.cookieValue()));
    }
    String auth = r.authorization();
    if (auth != null) {
      if (!auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw unauthorized("send the token as 'Authorization: Bearer TOKEN'");
      }
      if (!tokens.tokenMatches(auth.substring(7).trim())) {
        throw unauthorized("wrong token");
      }
      return requireJsonBody(r);
    }
    if (r.cookie() != null) {
      if (!tokens.cookieMatches(r.cookie())) {
        throw unauthorized("the dashboard's sign-in is no longer valid (the token changed): open the link"
            + " 'agentdesk serve' printed, which ends in ?token=…");
      }
      if (r.changes() && r.origin() == null) {
        // Origin is checked above; here it is missing, which no browser does for a change of its own.
        throw new ServeException(ServeException.Reason.FORBIDDEN, r.method() + " " + r.path()
            + " with the dashboard's cookie needs the dashboard's Origin header; scripts send"
            + " 'Authorization: Bearer TOKEN'" + whereIsTheToken());
      }
      return requireJsonBody(r);
    }
    if (!page && r.queryToken() != null) {
      throw unauthorized("a token in the URL is taken only when opening the dashboard (/?token=…);"
          + " send 'Authorization: Bearer TOKEN'" + whereIsTheToken());
    }
    if (page) {
      throw unauthorized("This browser has not signed in to this server yet.");
    }
    throw unauthorized("this server requires its token: send 'Authorization: Bearer TOKEN'" + whereIsTheToken());
  }

  /** A body sent to the API must be JSON: {@code text/plain} and forms are what any page may send. */
  private static Verdict requireJsonBody(Request r) {
    if (r.hasBody() && r.changes() && isApi(r.path()) && !isJson(r.contentType())) {
      throw new ServeException(ServeException.Reason.UNSUPPORTED_MEDIA_TYPE, "the request body must be sent as"
          + " 'Content-Type: application/json', not " + (r.contentType() == null ? "without a type" : "'"
          + r.contentType() + "'"));
    }
    return new Verdict.Proceed();
  }

  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    return type.equals("application/json");
  }

  private String whereIsTheToken() {
    return tokenFile.map(f -> " (the token is in " + f + ")").orElse("");
  }

  private static ServeException unauthorized(String message) {
    return new ServeException(ServeException.Reason.UNAUTHORIZED, message);
  }

  /** The cookie's name: one per port, so two servers of one host keep their own sign-ins. */
  String cookieName() {
    return "agentdesk-" + port.getAsInt();
  }

  /** Where the token is kept, for the sign-in page; empty when given directly, not required, or not loopback. */
  Optional<Path> tokenFile() {
    return tokenFile;
  }

  boolean tokenRequired() {
    return check.isPresent();
  }

  /** Package-visible for the timing measurement of the reliability suite. */
  boolean tokenMatches(String presented) {
    return check.isPresent() && check.get().tokenMatches(presented);
  }

  private String setCookieHeader(String value) {
    // No Secure attribute: the server speaks plain HTTP, where a Secure cookie would be dropped.
    return cookieName() + "=" + value + "; Path=/; Max-Age=" + COOKIE_MAX_AGE_S + "; HttpOnly; SameSite=Strict";
  }

  /** API, WebSocket and MCP paths answer JSON and never take a token from the URL. */
  static boolean isApi(String path) {
    return path.equals("/api") || path.startsWith("/api/") || path.equals("/ws") || path.startsWith("/ws/")
        || path.equals(MCP_PATH) || path.startsWith(MCP_PATH + "/");
  }

  /** Where the MCP endpoint listens (Streamable HTTP, ADR 0019). */
  static final String MCP_PATH = "/mcp";

  /**
   * The URL to send a signed-in browser to: the same path and query without {@code token}. A
   * path that could name another host in a Location header ({@code //evil}, {@code /\evil}) becomes
   * {@code /}, so the sign-in cannot be turned into an open redirect.
   */
  static String withoutToken(String path, String rawQuery) {
    String target = path != null && SAFE_PATH.matcher(path).matches() ? path : "/";
    if (rawQuery == null || rawQuery.isEmpty()) {
      return target;
    }
    List<String> kept = new ArrayList<>();
    for (String part : rawQuery.split("&")) {
      String key = part.contains("=") ? part.substring(0, part.indexOf('=')) : part;
      if (!part.isEmpty() && !"token".equals(URLDecoder.decode(key, StandardCharsets.UTF_8))) {
        kept.add(part);
      }
    }
    String query = String.join("&", kept);
    return query.isEmpty() || !SAFE_QUERY.matcher(query).matches() ? target : target + "?" + query;
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

  /**
   * The dashboard's own origin: {@code http} (or {@code https} behind a proxy) and the authority
   * the request was sent to (a browser's Host header is the URL's; the loopback check above keeps
   * a rebound name out), with no path or user part.
   */
  static boolean sameOrigin(String origin, String hostHeader) {
    if (hostHeader == null) {
      return false;
    }
    try {
      URI o = URI.create(origin.trim());
      if (o.getHost() == null || o.getScheme() == null
          || !(o.getScheme().equalsIgnoreCase("http") || o.getScheme().equalsIgnoreCase("https"))
          || o.getRawPath() != null && !o.getRawPath().isEmpty() || o.getRawUserInfo() != null) {
        return false;
      }
      String authority = o.getRawAuthority();
      return authority != null && authority.equalsIgnoreCase(hostHeader.trim());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
