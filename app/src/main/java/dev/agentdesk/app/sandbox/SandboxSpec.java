package dev.agentdesk.app.sandbox;

import java.util.List;

/**
 * What {@code sandbox start} asked for, written to {@code sandbox.json} in the sandbox's folder: the
 * supervisor reads it outside, and the guest reads the same file bound read-only inside.
 *
 * @param apps each app's argv (already split as a shell would)
 * @param browser the page Chromium opens, or null for no browser
 * @param server the serve to register with, or null for none
 * @param serverTokenFile the serve's token file when not the default one
 * @param record a host folder for the runtime's recording, or null
 * @param display the X display number inside (the supervisor picks one no host display uses)
 */
record SandboxSpec(String id, String name, List<List<String>> apps, String browser, boolean network, String server,
    boolean serverRequired, String serverTokenFile, String record, int width, int height, int display) {
  SandboxSpec {
    apps = List.copyOf(apps.stream().map(List::copyOf).toList());
  }
}
