package dev.agentdesk.app.sandbox;

import java.util.List;

/**
 * {@code state.json} in a sandbox's folder, written by its supervisor (atomically: a whole file or
 * the previous one) and read by {@code sandbox list} and {@code sandbox stop}; also what
 * {@code sandbox start --json} prints. Field names are the JSON's.
 *
 * @param state {@code starting}, {@code running}, {@code stopped} or {@code failed}
 * @param pid the supervisor's process id (every process of the sandbox is below it)
 * @param registered whether serve lists it (under {@code id})
 */
record SandboxState(String id, String name, String state, String url, String token_file, long pid, String dir,
    boolean network, boolean browser, List<String> apps, String server, boolean registered, String recording,
    String error) {
  SandboxState with(String newState, String newError) {
    return new SandboxState(id, name, newState, url, token_file, pid, dir, network, browser, apps, server, registered,
        recording, newError);
  }
}
