package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The attacks of issue #30 as a signed-in Chromium carries them out: a page on another port of
 * 127.0.0.1 (same site to the browser, so the dashboard's SameSite=Strict cookie rides along)
 * posts through a 307 redirect to serve's API, opens serve's WebSockets, and frames the dashboard.
 * The attacker's server here is a second loopback HTTP server, as any local program could run.
 */
@ExtendWith(Browser.Extension.class)
class CrossOriginBrowserTest {

  /** A second web server on loopback: its pages, and redirects of POSTs into serve. */
  private static final class Attacker implements AutoCloseable {
    final HttpServer http;
    final Map<String, String> pages = new ConcurrentHashMap<>();
    final Map<String, String> redirects = new ConcurrentHashMap<>();
    final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

    Attacker() throws IOException {
      http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      http.createContext("/", this::handle);
      http.start();
    }

    String base() {
      return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
      String path = ex.getRequestURI().getPath();
      seen.add(ex.getRequestMethod() + " " + path);
      ex.getRequestBody().readAllBytes();
      // Permissive CORS, so that a preflighted request is let through to the redirect as well.
      ex.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
      ex.getResponseHeaders().add("Access-Control-Allow-Methods", "POST, DELETE, PUT");
      ex.getResponseHeaders().add("Access-Control-Allow-Headers", "content-type");
      if (ex.getRequestMethod().equals("OPTIONS")) {
        ex.sendResponseHeaders(204, -1);
      } else if (redirects.containsKey(path)) {
        ex.getResponseHeaders().add("Location", redirects.get(path));
        ex.sendResponseHeaders(307, -1);
      } else if (pages.containsKey(path)) {
        byte[] body = pages.get(path).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
        ex.sendResponseHeaders(200, body.length);
        ex.getResponseBody().write(body);
      } else {
        ex.sendResponseHeaders(404, -1);
      }
      ex.close();
    }

    @Override
    public void close() {
      http.stop(0);
    }
  }

  private static void awaitTitle(Browser b, String prefix, int seconds) {
    new WebDriverWait(b.driver, Duration.ofSeconds(seconds)).until(d -> d.getTitle().startsWith(prefix));
  }

  @Test
  void aPageOnAnotherPortCannotStartTypeIntoOrKillATerminalThroughARedirect(Browser b) throws Exception {
    Path dir = Files.createTempDirectory("agentdesk-attack");
    Path marker = dir.resolve("marker");
    try (TestServer s = TestServer.start(); Attacker evil = new Attacker()) {
      var victim = s.post("/api/terminals", "{\"argv\": [\"cat\"]}");
      assertThat(victim.status()).isEqualTo(201);
      String id = victim.json().get("id").asText();

      b.driver.manage().deleteAllCookies();
      b.open(s.page("#/terminals"));
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10);
      assertThat(b.driver.manage().getCookieNamed("agentdesk-" + s.server.port())).as("signed in").isNotNull();

      evil.redirects.put("/spawn", s.base + "/api/terminals");
      evil.redirects.put("/type", s.base + "/api/terminals/" + id + "/input");
      evil.redirects.put("/kill", s.base + "/api/terminals/" + id);
      String spawn = "{\"argv\": [\"sh\", \"-c\", \"echo pwned > " + marker + "\"]}";
      evil.pages.put("/attack.html", "<!doctype html><title>attacking</title><script>\n"
          + "const out = [];\n"
          + "const post = (p, body) => fetch(p, {method: 'POST', mode: 'no-cors', credentials: 'include',\n"
          + "  headers: {'content-type': 'text/plain'}, body}).then(() => 'sent', e => 'error');\n"
          + "const ws = (p) => new Promise(done => { const w = new WebSocket(p);\n"
          + "  w.onopen = () => { w.close(); done('open'); }; w.onerror = () => done('refused'); });\n"
          + "(async () => {\n"
          + "  out.push(await post('/spawn', " + jsString(spawn) + "));\n"
          + "  out.push(await post('/type', '{\"text\": \"typed-by-another-page\\\\n\"}'));\n"
          + "  out.push(await fetch('/kill', {method: 'DELETE', credentials: 'include'}).then(r => 'deleted ' + r.status,\n"
          + "    e => 'error'));\n"
          + "  out.push(await ws('ws://127.0.0.1:" + s.server.port() + "/ws/events'));\n"
          + "  out.push(await ws('ws://127.0.0.1:" + s.server.port() + "/ws/terminals/" + id + "'));\n"
          + "  document.title = 'done ' + out.join(',');\n"
          + "})();\n"
          + "</script>");
      b.requestedUrls(); // only what the attack requests from here on
      b.open(evil.base() + "/attack.html");
      awaitTitle(b, "done", 20);
      String results = b.driver.getTitle();

      // The browser did carry each request to serve: the redirects were followed.
      assertThat(b.requestedUrls()).contains(s.base + "/api/terminals", s.base + "/api/terminals/" + id + "/input");
      assertThat(evil.seen).contains("POST /spawn", "POST /type");
      assertThat(results).as("both WebSockets refused").endsWith("refused,refused");

      // Nothing happened: no process, no typed text, the terminal alive.
      var terminals = s.get("/api/terminals").json();
      assertThat(terminals).hasSize(1);
      assertThat(terminals.get(0).get("id").asText()).isEqualTo(id);
      assertThat(terminals.get(0).get("exited").asBoolean()).as("the terminal was not killed").isFalse();
      assertThat(Files.exists(marker)).as("the redirected command did not run").isFalse();
      var snapshot = s.get("/api/terminals/" + id + "/snapshot");
      assertThat(snapshot.body()).doesNotContain("typed-by-another-page");
      s.delete("/api/terminals/" + id);
    } finally {
      Files.deleteIfExists(marker);
      Files.deleteIfExists(dir);
    }
  }

  @Test
  void anotherOriginCannotFrameTheSignedInDashboard(Browser b) throws Exception {
    try (TestServer s = TestServer.start(); Attacker evil = new Attacker()) {
      b.driver.manage().deleteAllCookies();
      b.open(s.page("#/terminals"));
      b.await(By.id("new-command"));
      evil.pages.put("/frame.html", "<!doctype html><title>framing</title>"
          + "<iframe id=f src='" + s.base + "/#/terminals' width=1200 height=800"
          + " onload=\"document.title = 'loaded'\"></iframe>");
      b.open(evil.base() + "/frame.html");
      awaitTitle(b, "loaded", 20);
      b.screenshot("framing-refused");
      b.driver.switchTo().frame("f");
      try {
        assertThat(b.driver.findElements(By.id("new-command"))).as("the Terminals page's Command field").isEmpty();
        assertThat(b.driver.getPageSource()).doesNotContain("<title>agentdesk</title>");
      } finally {
        b.driver.switchTo().defaultContent();
      }
    }
  }

  private static String jsString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
