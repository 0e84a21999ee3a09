package io.hooklens.corpus;

import org.junit.jupiter.api.Tag;

@Tag("slow")
class SharedCorpusFixesTest extends CorpusFixChecks {
  @Override
  Corpus corpus() {
    return Corpus.shared();
  }

  @Override
  int minFixes() {
    return 11;
  }
}
