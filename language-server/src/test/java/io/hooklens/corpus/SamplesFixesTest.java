package io.hooklens.corpus;

class SamplesFixesTest extends CorpusFixChecks {
  @Override
  Corpus corpus() {
    return Corpus.samples();
  }

  @Override
  int minFixes() {
    return 3;
  }
}
