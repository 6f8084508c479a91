/**
 * Internals of notifications that must be public for a library to reach them (the D-Bus interface
 * dbus-java builds a proxy of). Not an API: may change at any time.
 */
package dev.agentdesk.notify.internal;
