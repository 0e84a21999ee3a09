package io.hooklens.core.engine;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Binds rule parameter records from configuration values, with their documented defaults. */
public final class Params {
  private static final NoParams NO_PARAMS = new NoParams();

  private Params() {}

  /** The record built from every component's {@link Param#defaultValue()}. */
  static Record defaults(Class<? extends Record> type) {
    if (type == NoParams.class) {
      return NO_PARAMS;
    }
    List<String> errors = new ArrayList<>();
    Record r = bind(type, Map.of(), errors);
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(type.getName() + ": " + errors);
    }
    return r;
  }

  /**
   * Builds a parameter record; keys missing from {@code values} take their defaults. Unknown keys and
   * values of the wrong type are added to {@code errors}, and the default is used instead.
   */
  public static Record bind(Class<? extends Record> type, Map<String, Object> values, List<String> errors) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] args = new Object[components.length];
    TreeSet<String> known = new TreeSet<>();
    for (int i = 0; i < components.length; i++) {
      RecordComponent c = components[i];
      known.add(c.getName());
      Param p = c.getAnnotation(Param.class);
      if (p == null) {
        throw new IllegalArgumentException(type.getName() + "." + c.getName() + " has no @Param");
      }
      Object raw = values.containsKey(c.getName()) ? values.get(c.getName()) : p.defaultValue();
      Object v = convert(raw, c.getType());
      if (v == null) {
        errors.add("parameter " + c.getName() + " must be " + typeName(c.getType()) + ", got \"" + raw + "\"");
        v = convert(p.defaultValue(), c.getType());
      }
      args[i] = v;
    }
    for (String key : values.keySet()) {
      if (!known.contains(key)) {
        errors.add("unknown parameter " + key + (known.isEmpty() ? " (this rule takes none)" : "; known: " + known));
      }
    }
    try {
      Class<?>[] types = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
      }
      Constructor<? extends Record> ctor = type.getDeclaredConstructor(types);
      ctor.setAccessible(true);
      return ctor.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + type.getName(), e);
    }
  }

  private static Object convert(Object raw, Class<?> type) {
    String s = String.valueOf(raw).trim();
    try {
      if (type == int.class || type == Integer.class) {
        return Integer.parseInt(s);
      }
      if (type == long.class || type == Long.class) {
        return Long.parseLong(s);
      }
      if (type == boolean.class || type == Boolean.class) {
        return s.equals("true") ? Boolean.TRUE : s.equals("false") ? Boolean.FALSE : null;
      }
      if (type == String.class) {
        return s;
      }
    } catch (NumberFormatException e) {
      return null;
    }
    throw new IllegalArgumentException("unsupported parameter type " + type);
  }

  private static String typeName(Class<?> t) {
    return t == boolean.class ? "true or false" : t == String.class ? "a string" : "an integer";
  }
}
