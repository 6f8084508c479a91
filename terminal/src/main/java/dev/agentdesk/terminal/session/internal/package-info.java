/** Implementation details of PTY sessions; may change at any time. */
package dev.agentdesk.terminal.session.internal;
