package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Empty definitions for the named templates a chart uses and does not define. */
class NamedTemplatesTest {
  @Test
  void usedAndNotDefinedAreDefinedEmpty() {
    String helpers = "{{- define \"app.name\" -}}{{ include \"common.names.name\" . }}{{- end }}";
    String job = "name: {{ include \"app.name\" . }}\nlabels: {{ template \"common.labels\" . }}\n"
        + "{{ block \"app.extra\" . }}{{ end }}{{ include \"app.extra\" . }}";
    assertEquals("{{- define \"common.labels\" -}}{{- end -}}\n{{- define \"common.names.name\" -}}{{- end -}}\n",
        NamedTemplates.undefined(List.of(helpers, job)));
  }

  @Test
  void aDefinitionsBodyEndsAtTheEndThatClosesIt() {
    String text = "{{/* notes */}}\n{{- define \"a\" -}}\nx: {{ if .y }}1{{ else }}2{{ end }}\n{{- end }}\n"
        + "{{ define \"b\" }}{{ range .z }}-{{ end }}{{ end }}{{ define \"open\" }}{{ if . }}";
    List<NamedTemplates.Definition> defs = NamedTemplates.definitions(text);
    assertEquals(List.of("a", "b"), defs.stream().map(NamedTemplates.Definition::name).toList());
    assertEquals("\nx: {{ if .y }}1{{ else }}2{{ end }}\n", text.substring(defs.get(0).start(), defs.get(0).end()));
    assertEquals("{{ range .z }}-{{ end }}", text.substring(defs.get(1).start(), defs.get(1).end()));
  }

  @Test
  void textWithoutActionsUsesNothing() {
    assertEquals("", NamedTemplates.undefined(List.of("note: include \"x\" is prose here\n")));
  }
}
