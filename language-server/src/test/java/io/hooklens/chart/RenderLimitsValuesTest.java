package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.RunawayCharts;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The render limits as the system properties set them, and as messages name them. */
class RenderLimitsValuesTest {
  @Test
  void propertiesSetTheLimitsAndABadValueKeepsTheDefault() throws Exception {
    assertEquals(RenderLimits.DEFAULT, RenderLimits.current());
    assertEquals(new RenderLimits(5, 1536, 2), RunawayCharts.withProperties(
        Map.of(RunawayCharts.TIMEOUT, " 5", RunawayCharts.MEMORY, "lots", RunawayCharts.OUTPUT, "2"),
        RenderLimits::current));
    assertEquals(RenderLimits.DEFAULT, RunawayCharts.withProperties(
        Map.of(RunawayCharts.TIMEOUT, "0", RunawayCharts.MEMORY, "-1", RunawayCharts.OUTPUT, "1000001"),
        RenderLimits::current));
  }

  @Test
  void sizesAreGivenInGibWhereExact() {
    assertEquals("1.5 GiB", RenderLimits.size(1536));
    assertEquals("2 GiB", RenderLimits.size(2048));
    assertEquals("1000 MiB", RenderLimits.size(1000));
    assertEquals("64 MiB", RenderLimits.size(64));
  }
}
