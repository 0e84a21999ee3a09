package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HelmTextTest {
  @Test
  void hookAnnotationsAreHiddenAndRestoredInPlace() {
    String text = """
        annotations:
          "helm.sh/hook": pre-install
          helm.sh/hook-weight: "-5"
          helm.sh/hook-delete-policy: hook-succeeded
        """;
    String hidden = HelmText.hideHooks(text);
    assertEquals(text.length(), hidden.length());
    assertEquals(-1, hidden.indexOf("helm.sh/hook"));
    assertEquals(text.indexOf("-weight"), hidden.indexOf("-weight"), "nothing moves");
    assertEquals(text, HelmText.restoreHooks(hidden));
  }

  @Test
  void lookupCallsBecomeEmptyDictsOfTheSameLength() {
    assertReplaced("{{- $s := ", "lookup \"v1\" \"Secret\" .Release.Namespace \"db\" ", "}}");
    assertReplaced("{{ $d := (", "lookup \"v1\" \"Secret\" $ns (include \"x\" .)", ").data | default dict -}}");
    assertReplaced("{{ if ", "lookup \"v1\" \"Namespace\" \"\" \"a}}b\" ", "| not -}}x{{ end }}");
    assertReplaced("{{ with ", "lookup \"v1\" \"Secret\" .ns .name ", "-}}");
  }

  @Test
  void otherLookupsAreLeftAlone() {
    String text = """
        {{/* lookup "v1" "Secret" would need a cluster */}}
        {{ .Values.lookup }} {{ $lookup }} {{ include "lookup" . }} {{ lookups }}
        lookup "v1" outside an action
        """;
    assertEquals(text, HelmText.emptyLookups(text));
  }

  @Test
  void aCallOverSeveralLinesKeepsItsLineBreaks() {
    String text = "{{ $s := lookup \"v1\"\n  \"Secret\" \"ns\" \"x\" }}\nkind: Secret\n";
    String out = HelmText.emptyLookups(text);
    assertEquals(text.length(), out.length());
    assertEquals(text.lines().count(), out.lines().count());
    assertEquals("{{ $s := (dict)     \n                    }}\nkind: Secret\n", out);
  }

  /** The call in the middle becomes {@code (dict)} and spaces; the text around it stays. */
  private static void assertReplaced(String before, String call, String after) {
    String expected = before + "(dict)" + " ".repeat(call.length() - "(dict)".length()) + after;
    assertEquals(expected, HelmText.emptyLookups(before + call + after));
  }
}
