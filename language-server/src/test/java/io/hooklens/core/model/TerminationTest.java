package io.hooklens.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TerminationTest {
  @Test
  void aPreStopThatEndsEarlyLeavesTheAppTheRestOfTheGracePeriod() {
    double sigterm = Termination.sigterm(30, 10);
    assertEquals(10, sigterm);
    assertEquals(30, Termination.sigkill(30, sigterm));
  }

  @Test
  void aPreStopOvertakenByTheGracePeriodStillLeavesTheAppTheKubeletsMinimum() {
    double sigterm = Termination.sigterm(30, 45);
    assertEquals(30, sigterm);
    assertEquals(32, Termination.sigkill(30, sigterm));
    assertEquals(31, Termination.sigkill(30, Termination.sigterm(30, 29)));
  }

  @Test
  void theStopTimeoutAfterSigtermIsWhatIsLeftButNeverBelowTheMinimum() {
    assertEquals(12, Termination.stopTimeout(12));
    assertEquals(2, Termination.stopTimeout(1));
    assertEquals(2, Termination.stopTimeout(-5));
  }
}
