package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.core.yaml.YamlReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Mapping places of rendered documents back to templates, without Helm: rendered text is written out. */
class SourceMapperTest {
  private static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: {{ .Release.Name }}-web
        labels:
          {{- include "shop.labels" . | nindent 4 }}
      spec:
        template:
          spec:
            terminationGracePeriodSeconds: {{ .Values.grace }}
            containers:
              {{- if .Values.sidecar }}
              - name: sidecar
                image: envoy
              {{- end }}
              - name: web
                image: nginx
                # hooklens:ignore HL999 a comment that survives rendering
                lifecycle:
                  preStop:
                    exec:
                      command: ["sleep", "{{ .Values.drain }}"]
      """;
  private static final String RENDERED = """
      ---
      # Source: shop/templates/deployment.yaml
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: release-web
        labels:
          app.kubernetes.io/name: shop
          app.kubernetes.io/instance: release
      spec:
        template:
          spec:
            terminationGracePeriodSeconds: 30
            containers:
              - name: web
                image: nginx
                # hooklens:ignore HL999 a comment that survives rendering
                lifecycle:
                  preStop:
                    exec:
                      command: ["sleep", "45"]
      """;

  @Test
  void aKeyMapsToTheSameKey() {
    assertEquals(at(DEPLOYMENT, "preStop"), mapInDeployment(at(RENDERED, "preStop")));
  }

  @Test
  void aValueMapsToTheActionThatProducedIt() {
    assertEquals(at(DEPLOYMENT, "{{ .Values.grace }}"), mapInDeployment(at(RENDERED, "30")));
  }

  @Test
  void aListItemIsFoundByItsNameWhenAConditionalItemIsLeftOut() {
    assertEquals(at(DEPLOYMENT, "image: nginx").start().line(),
        mapInDeployment(at(RENDERED, "nginx")).start().line());
  }

  @Test
  void aPlaceInsideAnIncludeMapsToTheNearestKeyTheTemplateWrites() {
    assertEquals(at(DEPLOYMENT, "labels"), mapInDeployment(at(RENDERED, "app.kubernetes.io/instance")));
  }

  @Test
  void aCommentMapsToTheLineWithTheSameText() {
    assertEquals(at(DEPLOYMENT, "# hooklens:ignore"), mapInDeployment(at(RENDERED, "# hooklens:ignore")));
  }

  @Test
  void aDocumentMapsToTheTemplateDocumentOfItsKind() {
    String template = """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: {{ .Release.Name }}-config
        ---
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {{ .Release.Name }}-job
          annotations:
            "helm.sh/hook": pre-install
        """;
    String rendered = """
        ---
        # Source: shop/templates/job.yaml
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: release-job
          annotations:
            "helm.sh/hook": pre-install
        ---
        # Source: shop/templates/job.yaml
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: release-config
        """;
    SourceMapper.Mapped m = map(rendered, template, at(rendered, "\"helm.sh/hook\""));
    assertEquals(at(template, "\"helm.sh/hook\""), m.range());
    assertEquals(1, m.document());
    SourceMapper.Mapped name = map(rendered, template, at(rendered, "release-config"));
    assertEquals(at(template, "{{ .Release.Name }}-config"), name.range());
    assertEquals(0, name.document());
  }

  @Test
  void aDocumentAnActionWritesWholeMapsToThatActionsLine() {
    String template = """
        {{- if .Values.crds.create }}
        {{- range $path, $bytes := .Files.Glob "crds/*.yaml" }}
        {{ $.Files.Get $path }}
        ---
        {{- end }}
        {{- end }}
        """;
    String rendered = """
        ---
        # Source: shop/templates/crds.yaml
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: backups.example.com
          annotations:
            "helm.sh/hook": crd-install
        """;
    assertEquals(at(template, "{{ $.Files.Get $path }}"), map(rendered, template, at(rendered, "crd-install")).range());
  }

  private static Range mapInDeployment(Range rendered) {
    return map(RENDERED, DEPLOYMENT, rendered).range();
  }

  private static SourceMapper.Mapped map(String rendered, String template, Range range) {
    ParsedFile parsed = new YamlReader().read(new SourceText(rendered), false);
    RenderedChart chart = RenderedChart.of(parsed);
    return new SourceMapper(chart.at(range.start().line()), parsed.source(), template(template)).map(range);
  }

  /** A template read as {@link ChartLinter} reads one: actions masked, lines of hidden output recorded. */
  static HookDocument template(String text) {
    TemplateMask.Result mask = TemplateMask.maskAndTrack(text);
    ParsedFile masked = new YamlReader().read(new SourceText(mask.text()), false);
    return HookDocument.of("t.yaml",
        new ParsedFile(new SourceText(text), masked.documents(), List.of(), true, mask.hiddenOutputLines()));
  }

  /** The range of the first occurrence of a one-line needle. */
  static Range at(String text, String needle) {
    int offset = text.indexOf(needle);
    if (offset < 0) {
      throw new IllegalArgumentException(needle + " is not in the text");
    }
    int line = (int) text.substring(0, offset).chars().filter(c -> c == '\n').count();
    int column = offset - (text.lastIndexOf('\n', offset - 1) + 1);
    return Range.of(line, column, line, column + needle.length());
  }
}
