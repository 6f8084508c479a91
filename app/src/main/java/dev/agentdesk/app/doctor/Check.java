package dev.agentdesk.app.doctor;

import java.util.Map;

/**
 * One line of {@code agentdesk doctor}: what was looked at, how it stands, and what to do about it.
 *
 * @param name what was checked ({@code git}, {@code agent claude}, {@code data folder}, …)
 * @param status how it stands
 * @param detail what was found (a version, a path, a mode)
 * @param fix what to do, when {@code status} is {@link Status#WARN} or {@link Status#FAIL}; else null
 * @param required whether the main job ({@code serve} on SQLite) needs this; a required FAIL makes
 *     doctor exit 1
 * @param data extra fields for {@code --json} (an agent's path, version, tested versions), or empty
 */
record Check(String name, Status status, String detail, String fix, boolean required, Map<String, Object> data) {
  enum Status {
    /** Works. */
    OK,
    /** Informational: not set up, and nothing needs it yet (no server running, no PostgreSQL). */
    INFO,
    /** Missing or off, and only an optional part needs it (the sandbox, an agent). */
    WARN,
    /** Broken. */
    FAIL
  }

  static Check ok(String name, String detail) {
    return new Check(name, Status.OK, detail, null, false, Map.of());
  }

  static Check info(String name, String detail) {
    return new Check(name, Status.INFO, detail, null, false, Map.of());
  }

  static Check warn(String name, String detail, String fix) {
    return new Check(name, Status.WARN, detail, fix, false, Map.of());
  }

  static Check fail(String name, String detail, String fix) {
    return new Check(name, Status.FAIL, detail, fix, false, Map.of());
  }

  Check asRequired() {
    return new Check(name, status, detail, fix, true, data);
  }

  Check with(Map<String, Object> more) {
    return new Check(name, status, detail, fix, required, more);
  }

  /** Whether this line stops the main job. */
  boolean blocks() {
    return required && status == Status.FAIL;
  }
}
