/**
 * Supervised PTY sessions: agents run in real pseudo-terminals, their output flows through the raw
 * OSC scanner, the VT engine and the output parser, and a reducer folds the resulting events into
 * one {@link dev.agentdesk.terminal.session.SessionState} per session.
 *
 * <p>Public surface: {@link dev.agentdesk.terminal.session.PtySession} (spawn, write, keys,
 * resize, kill, capture), {@link dev.agentdesk.terminal.session.SessionSpec},
 * {@link dev.agentdesk.terminal.session.Agent}, {@link dev.agentdesk.terminal.session.Key},
 * {@link dev.agentdesk.terminal.session.SessionState} and the
 * {@link dev.agentdesk.terminal.session.SessionEvent}s a listener receives. Everything in
 * {@code internal} may change at any time.
 */
package dev.agentdesk.terminal.session;
