package io.hooklens.cli;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/** The docs' samples that run hooks, on the embedded cluster with real processes. */
@Tag("slow")
class DocRunSamplesTest {
  @TestFactory
  Stream<DynamicTest> eachRunSampleIsWhatItsCommandPrints() throws IOException {
    return DocSamples.tests(DocSamples::runsHooks);
  }
}
