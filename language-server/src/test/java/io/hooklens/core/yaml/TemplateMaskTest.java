package io.hooklens.core.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemplateMaskTest {
  private static ParsedFile read(String template) {
    String masked = TemplateMask.mask(template);
    assertEquals(template.split("\n", -1).length, masked.split("\n", -1).length, "same number of lines");
    return new YamlReader().read(new SourceText(masked), false);
  }

  @Test
  void inlineActionsBecomeUnknownScalarsAtTheirColumns() {
    ParsedFile f = read("metadata:\n  name: {{ include \"x.fullname\" . }}-web\n  ns: \"{{ .Release.Namespace }}\"\n");
    assertEquals(List.of(), f.problems());
    YMap md = f.documents().get(0).root().asMap().map("metadata");
    YScalar name = md.scalar("name");
    assertTrue(name.isTemplated());
    assertEquals(1, name.range().start().line());
    assertEquals(8, name.range().start().column());
    assertTrue(name.value().endsWith("-web"));
    assertTrue(md.scalar("ns").isTemplated());
  }

  @Test
  void controlLinesDoNotBreakTheStructure() {
    String t = """
        spec:
          {{- if .Values.grace }}
          terminationGracePeriodSeconds: {{ .Values.grace }}
          {{- end }}
          containers:
          {{- range .Values.containers }}
            - name: {{ .name }}
          {{- end }}
        """;
    ParsedFile f = read(t);
    assertEquals(List.of(), f.problems());
    YMap spec = f.documents().get(0).root().asMap().map("spec");
    assertTrue(spec.scalar("terminationGracePeriodSeconds").isTemplated());
    assertEquals(1, spec.seq("containers").size());
  }

  @Test
  void includedBlocksLeaveTheirKeyAsAMapping() {
    String t = """
        metadata:
          labels: {{- include "common.labels" . | nindent 4 }}
            app.kubernetes.io/component: web
        spec:
          affinity:
            - {{ toYaml . | nindent 8 }}
              weight: 1
          image: {{ .Values.registry }}/{{ .Values.image }}:{{ .Values.tag }}
          pull: Always
        """;
    ParsedFile f = read(t);
    assertEquals(List.of(), f.problems());
    YMap root = f.documents().get(0).root().asMap();
    assertEquals("web", root.map("metadata").map("labels").string("app.kubernetes.io/component"));
    assertTrue(root.map("spec").scalar("image").isTemplated());
  }

  @Test
  void blockScalarsWhoseContentIsATemplateStayReadable() {
    String t = "data:\n  script: |-\n{{ include \"script\" . | indent 4 }}\nkind: ConfigMap\n";
    ParsedFile f = read(t);
    assertEquals(List.of(), f.problems());
    assertTrue(f.documents().get(0).root().asMap().map("data").scalar("script").isTemplated());
  }

  @Test
  void multiLineActionsAndCommentsVanish() {
    String t = "{{- /*\nA comment that spans lines.\n*/ -}}\napiVersion: v1\nkind: ConfigMap\n";
    ParsedFile f = read(t);
    assertEquals(List.of(), f.problems());
    YMap root = f.documents().get(0).root().asMap();
    assertEquals("ConfigMap", root.string("kind"));
    assertEquals(3, root.entry("apiVersion").key().range().start().line());
  }

  @Test
  void nonBmpCharactersKeepColumns() {
    String t = "a: {{ \"\uD83D\uDE00\" }} # x\nb: 1\n";
    String masked = TemplateMask.mask(t);
    assertEquals(t.codePointCount(0, t.indexOf('\n')), masked.codePointCount(0, masked.indexOf('\n')));
  }

  @Test
  void hiddenOutputIsTrackedButControlFlowIsNot() {
    String t = "spec:\n  {{- if .Values.x }}\n  a: 1\n  {{- end }}\n  {{- include \"defaults\" . | nindent 2 }}\n"
        + "  {{- /* note */}}\n  {{- $v := .Values.y }}\n  {{ toYaml .Values.extra }}\n";
    var r = TemplateMask.maskAndTrack(t);
    assertEquals("{4, 7}", r.hiddenOutputLines().toString());
  }

  @Test
  void onlyTheFirstBranchOfAnIfIsRead() {
    String t = """
        preStop:
          {{- if .Values.shutdownManager }}
          httpGet:
            path: /shutdown
          {{- else if .Values.other }}
          sleep: {seconds: 5}
          {{- else }}
          exec:
            command: ["sh", "-c", "sleep 5"]
          {{- end }}
        {{- define "unused" }}
        notYaml: [
        {{- end }}
        after: 1
        """;
    ParsedFile f = read(t);
    assertEquals(List.of(), f.problems());
    YMap root = f.documents().get(0).root().asMap();
    assertEquals(List.of("httpGet"), root.map("preStop").entries().stream().map(e -> e.key().value()).toList());
    assertEquals("1", root.string("after"));
  }

  /** A guard against hangs on hostile templates, not a performance target: wide for two busy cores. */
  private static String maskInTime(String template) {
    return assertTimeoutPreemptively(Duration.ofMinutes(2), () -> TemplateMask.mask(template));
  }

  @Test
  void deeplyNestedActionsAreMaskedInLinearTime() {
    // Searching all open actions on every line took quadratic time: hours for this 3 MB template.
    String template = "{{- if .Values.a }}\n".repeat(100_000) + "kind: Pod\n" + "{{- end }}\n".repeat(100_000);
    String masked = maskInTime(template);
    assertEquals(template.split("\n", -1).length, masked.split("\n", -1).length);
    assertTrue(masked.contains("\nkind: Pod\n"), "the content inside the actions is kept");
  }

  @Test
  void aLineOfManyUnclosedActionsIsMaskedInLinearTime() {
    // Each action that never closes sent a regular expression to the end of the line: quadratic, most of an hour.
    String masked = maskInTime("metadata:\n  name: " + "{{ if ".repeat(200_000) + "\nkind: Pod\n");
    assertEquals(4, masked.split("\n", -1).length);
    assertTrue(masked.startsWith("metadata:\n  name: " + TemplateMask.PLACEHOLDER), "an action to the end of the text");
  }

  @Test
  void aLoneCarriageReturnStaysALineBreak() {
    // The reader counts a lone CR as a line break; emptying a line of actions dropped the CRs before it, and every
    // line after it read two lines up.
    ParsedFile f = read("spec:\n\r\r  {{- if .Values.b }}\n  c: 2\n{{- end }}\n");
    assertEquals(List.of(), f.problems());
    YScalar c = f.documents().get(0).root().asMap().map("spec").scalar("c");
    assertEquals(4, c.range().start().line());
  }
}
