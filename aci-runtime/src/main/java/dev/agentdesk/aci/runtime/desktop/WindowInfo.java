package dev.agentdesk.aci.runtime.desktop;

/**
 * One top-level window as {@code list_windows} reports it.
 *
 * @param id the X window id (usable as the {@code window:<id>} capture scope)
 * @param title {@code _NET_WM_NAME}, else {@code WM_NAME}; empty when unnamed
 * @param appClass the class part of {@code WM_CLASS}; empty when unset
 * @param pid {@code _NET_WM_PID}, or null when the client did not set it
 * @param bounds the window's geometry in root coordinates
 * @param focused whether it holds the input focus (or is the EWMH active window)
 */
public record WindowInfo(long id, String title, String appClass, Integer pid, Rect bounds, boolean focused) {}
