package dev.agentdesk.aci.runtime.atspi.internal;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.types.Variant;

/**
 * Turns the loosely typed values dbus-java hands back for untyped method calls (lists or
 * arrays, {@code Object[]} structs, {@link Variant}s, unsigned wrappers) into plain Java values.
 * Every method is lenient about container kind and strict about content: a reply of the wrong
 * shape is a {@link BusCallException} (protocol), never a ClassCastException.
 */
public final class Decode {
  private Decode() {}

  public static Object unwrap(Object o) {
    return o instanceof Variant<?> v ? unwrap(v.getValue()) : o;
  }

  public static List<Object> list(Object o) throws BusCallException {
    o = unwrap(o);
    if (o instanceof Collection<?> c) {
      return new ArrayList<>(c);
    }
    if (o != null && o.getClass().isArray()) {
      int n = Array.getLength(o);
      List<Object> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(Array.get(o, i));
      }
      return out;
    }
    throw BusCallException.protocol("expected an array, got " + describe(o));
  }

  public static long number(Object o) throws BusCallException {
    o = unwrap(o);
    if (o instanceof Number n) {
      return n.longValue();
    }
    throw BusCallException.protocol("expected a number, got " + describe(o));
  }

  public static double real(Object o) throws BusCallException {
    o = unwrap(o);
    if (o instanceof Number n) {
      return n.doubleValue();
    }
    throw BusCallException.protocol("expected a number, got " + describe(o));
  }

  public static String string(Object o) throws BusCallException {
    o = unwrap(o);
    if (o instanceof String s) {
      return s;
    }
    if (o instanceof DBusPath p) {
      return p.getPath();
    }
    throw BusCallException.protocol("expected a string, got " + describe(o));
  }

  public static List<Long> numbers(Object o) throws BusCallException {
    List<Long> out = new ArrayList<>();
    for (Object e : list(o)) {
      out.add(number(e));
    }
    return out;
  }

  public static List<String> strings(Object o) throws BusCallException {
    List<String> out = new ArrayList<>();
    for (Object e : list(o)) {
      out.add(string(e));
    }
    return out;
  }

  /** A struct: dbus-java gives {@code Object[]} (or a list) for an untyped struct. */
  public static List<Object> struct(Object o) throws BusCallException {
    return list(o);
  }

  /** An {@code a(so)} reply: accessible references as (bus name, object path). */
  public static List<NodeId> nodeIds(Object o) throws BusCallException {
    List<NodeId> out = new ArrayList<>();
    for (Object e : list(o)) {
      List<Object> s = struct(e);
      if (s.size() != 2) {
        throw BusCallException.protocol("expected (so), got " + s.size() + " fields");
      }
      out.add(new NodeId(string(s.get(0)), string(s.get(1))));
    }
    return out;
  }

  public static Map<?, ?> map(Object o) throws BusCallException {
    o = unwrap(o);
    if (o instanceof Map<?, ?> m) {
      return m;
    }
    throw BusCallException.protocol("expected a dict, got " + describe(o));
  }

  public static boolean bool(Object o) throws BusCallException {
    o = unwrap(o);
    if (o instanceof Boolean b) {
      return b;
    }
    throw BusCallException.protocol("expected a boolean, got " + describe(o));
  }

  private static String describe(Object o) {
    return o == null ? "nothing" : o.getClass().getSimpleName();
  }
}
