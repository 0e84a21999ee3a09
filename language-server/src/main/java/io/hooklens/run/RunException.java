package io.hooklens.run;

/** A run that cannot go on for a reason outside Hooklens: the cluster is unreachable or refuses a request. */
public final class RunException extends RuntimeException {
  RunException(String message, Throwable cause) {
    super(message, cause);
  }
}
