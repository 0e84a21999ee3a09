package io.hooklens.lsp;

import com.google.gson.JsonElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.MessageIssueHandler;
import org.eclipse.lsp4j.jsonrpc.json.JsonRpcMethod;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.MessageIssue;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.validation.NonNull;

/**
 * Checks every request and notification from the client before the server sees it: a method that takes params
 * must have them, with every field the protocol requires (lsp4j marks them {@link NonNull}), and the required
 * fields of those, at any depth (the inside of an optional field is not checked). A
 * request without them is answered with an invalid-params error that names what is missing
 * ({@code params.textDocument.uri}); a notification is logged and dropped. So no handler meets a null it was
 * promised would not be there, and no answer carries a Java stack trace. Unknown methods pass, for lsp4j to
 * answer.
 */
final class RequestChecks implements MessageConsumer {
  /** Methods whose params carry nothing the server reads, so that a client that leaves them out still works. */
  private static final Set<String> PARAMS_OPTIONAL = Set.of("initialized");

  /**
   * Required fields the server does without, and that clients do leave out or half fill; neither they nor what
   * is inside them is checked: a client's capabilities, and {@code settings: null}, which the protocol allows
   * and which means "ask me".
   */
  private static final Map<String, Set<String>> MAY_BE_NULL = Map.of(
      "initialize", Set.of("params.capabilities"),
      "workspace/didChangeConfiguration", Set.of("params.settings"));

  /** Deeper than any LSP params. */
  private static final int MAX_DEPTH = 16;

  private static final Map<Class<?>, List<Field>> FIELDS = new ConcurrentHashMap<>();

  private final MessageConsumer next;
  private final MessageJsonHandler json;
  private final MessageIssueHandler issues;
  private final Consumer<String> log;

  /**
   * @param issues answers refused requests (lsp4j's remote endpoint)
   * @param log where dropped notifications are told
   */
  RequestChecks(MessageConsumer next, MessageJsonHandler json, MessageIssueHandler issues, Consumer<String> log) {
    this.next = next;
    this.json = json;
    this.issues = issues;
    this.log = log;
  }

  @Override
  public void consume(Message message) {
    String method;
    Object params;
    if (message instanceof RequestMessage r) {
      method = r.getMethod();
      params = r.getParams();
    } else if (message instanceof NotificationMessage n) {
      method = n.getMethod();
      params = n.getParams();
    } else {
      next.consume(message);
      return;
    }
    String missing = method == null ? null : missing(method, params);
    if (missing == null) {
      next.consume(message);
    } else if (message instanceof RequestMessage) {
      issues.handle(message, List.of(new MessageIssue("Invalid params for " + method + ": " + missing,
          ResponseErrorCode.InvalidParams.getValue())));
    } else {
      log.accept("ignored a " + method + " notification: " + missing);
    }
  }

  /** What a method's params lack, or null when they lack nothing. */
  private String missing(String method, Object params) {
    JsonRpcMethod m = json.getJsonRpcMethod(method);
    if (m == null || m.getParameterTypes().length == 0) {
      return null;
    }
    if (params == null) {
      return PARAMS_OPTIONAL.contains(method) ? null : "params is missing";
    }
    String path = missing(params, "params", MAY_BE_NULL.getOrDefault(method, Set.of()), 0);
    return path == null ? null : path + " is missing";
  }

  /** The path of the first required field that is null, or null. */
  private static String missing(Object value, String path, Set<String> mayBeNull, int depth) {
    if (value == null || depth > MAX_DEPTH || value instanceof JsonElement) {
      return null;
    }
    if (value instanceof Either<?, ?> e) {
      return missing(e.get(), path, mayBeNull, depth + 1);
    }
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        String p = missing(list.get(i), path + "[" + i + "]", mayBeNull, depth + 1);
        if (p != null) {
          return p;
        }
      }
      return null;
    }
    for (Field f : fields(value.getClass())) {
      String p = path + "." + f.getName();
      Object v;
      try {
        v = f.get(value);
      } catch (IllegalAccessException e) {
        continue;
      }
      // Only what is required, and what is required in that: an optional part a client sends half-filled
      // (capabilities, a completion's context) is the server's to read with care, not a reason to refuse.
      if (!f.isAnnotationPresent(NonNull.class) || mayBeNull.contains(p)) {
        continue;
      }
      if (v == null) {
        return p;
      }
      String deeper = missing(v, p, mayBeNull, depth + 1);
      if (deeper != null) {
        return deeper;
      }
    }
    return null;
  }

  /** The instance fields of lsp4j's protocol types, readable; none for any other type. */
  private static List<Field> fields(Class<?> type) {
    return FIELDS.computeIfAbsent(type, t -> {
      if (!t.getName().startsWith("org.eclipse.lsp4j.") || t.getName().startsWith("org.eclipse.lsp4j.jsonrpc.")) {
        return List.of();
      }
      // The superclass's fields (textDocument, position) before the subclass's own, as the protocol lists them.
      List<Class<?>> lineage = new ArrayList<>();
      for (Class<?> k = t; k != null && k != Object.class; k = k.getSuperclass()) {
        lineage.add(0, k);
      }
      List<Field> ordered = new ArrayList<>();
      for (Class<?> k : lineage) {
        for (Field f : k.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic() || f.getType().isPrimitive()) {
            continue;
          }
          try {
            f.setAccessible(true);
            ordered.add(f);
          } catch (RuntimeException e) {
            // Not readable here: not checked.
          }
        }
      }
      return List.copyOf(ordered);
    });
  }
}
