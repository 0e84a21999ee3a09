package io.hooklens.rules;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/** What fabric8's Kubernetes model, generated from the API's OpenAPI, says a type's fields are. */
public final class ApiModel {
  private ApiModel() {}

  /** The JSON names a model class reads and writes: its fields' Jackson properties, in declaration order. */
  public static List<String> fields(Class<?> model) {
    List<String> names = new ArrayList<>();
    for (Field f : model.getDeclaredFields()) {
      JsonProperty p = f.getAnnotation(JsonProperty.class);
      if (p != null && f.getAnnotation(JsonIgnore.class) == null) {
        names.add(p.value());
      }
    }
    if (names.isEmpty()) {
      throw new AssertionError(model.getName() + " has no Jackson properties");
    }
    return names;
  }

  /** The model class of a type of the core group ({@code io.fabric8.kubernetes.api.model}). */
  public static Class<?> coreType(String type) {
    try {
      return Class.forName("io.fabric8.kubernetes.api.model." + type);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(type + " is not a type of fabric8's Kubernetes model", e);
    }
  }
}
