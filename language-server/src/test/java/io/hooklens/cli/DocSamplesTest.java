package io.hooklens.cli;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The docs' samples that run no hook: each is what its command prints now. */
class DocSamplesTest {
  @TestFactory
  Stream<DynamicTest> eachSampleIsWhatItsCommandPrints() throws IOException {
    return DocSamples.tests(s -> !DocSamples.runsHooks(s));
  }
}
