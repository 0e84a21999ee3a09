package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestCharts;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.yaml.YMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --set} values reach Helm as Helm's own {@code --set} reads them. The table is the examples of
 * Helm's documentation (https://helm.sh/docs/intro/using_helm/#the-format-and-limitations-of---set), each
 * rendered by a chart whose only template writes {@code .Values} as JSON.
 */
class SetValuesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private Path chart;

  @BeforeEach
  void chart() throws Exception {
    chart = TestCharts.write(dir, "values", Map.of("values.yaml", "name: [x, w, z]\na: b\n",
        "templates/values.yaml", """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: values
              {{- with .Values.annotations }}
              annotations: {{ toYaml . | nindent 4 }}
              {{- end }}
            data:
              json: {{ toJson .Values | quote }}
            """));
  }

  /** The chart's values as Helm rendered them with these --set arguments. */
  private JsonNode rendered(String... set) throws Exception {
    return rendered(new SetValues(List.of(set), List.of(), List.of()));
  }

  private JsonNode rendered(SetValues values) throws Exception {
    return JSON.readTree(configMap(values).map("data").string("json"));
  }

  private YMap configMap(SetValues values) throws Exception {
    ChartLinter.Rendering r = ChartLinter.render(chart, List.of(), values, Targets.DEFAULT_KUBERNETES);
    return (YMap) ((ChartLinter.Manifests) r).parsed().documents().get(0).root();
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text.replace('\'', '"'));
  }

  @Test
  void helmsDocumentedExamples() throws Exception {
    assertEquals(json("{'name':'value','a':'b'}"), rendered("name=value"));
    assertEquals(json("{'name':['x','w','z'],'a':'b','c':'d'}"), rendered("a=b,c=d"));
    assertEquals(json("{'name':['x','w','z'],'a':'b','outer':{'inner':'value'}}"), rendered("outer.inner=value"));
    // Helm keeps the blanks after the commas, whatever its documentation shows.
    assertEquals(json("{'name':['a',' b',' c'],'a':'b'}"), rendered("name={a, b, c}"));
    // Helm reads [] as text, not as an empty list as documented (helm/helm#31061).
    assertEquals(json("{'name':'[]','a':'b'}"), rendered("name=[]"));
    assertEquals(json("{'a':'b'}"), rendered("name=null"));
    assertEquals(json("{'name':'[]'}"), rendered("name=[],a=null"));
    assertEquals(json("{'name':['x','w','z'],'a':'b','servers':[{'port':80}]}"), rendered("servers[0].port=80"));
    assertEquals(json("{'name':['x','w','z'],'a':'b','servers':[{'port':80,'host':'example'}]}"),
        rendered("servers[0].port=80,servers[0].host=example"));
    assertEquals(json("{'name':'value1,value2','a':'b'}"), rendered("name=value1\\,value2"));
    // The documentation's shell quotes are gone by the time Helm reads the argument.
    assertEquals(json("{'name':['x','w','z'],'a':'b','nodeSelector':{'kubernetes.io/role':'master'}}"),
        rendered("nodeSelector.kubernetes\\.io/role=master"));
  }

  @Test
  void valuesAreTypedAsHelmTypesThem() throws Exception {
    assertEquals(json("{'name':['x','w','z'],'a':'b','n':1,'z':0,'t':true,'f':false,'o':'01','v':'1.5'}"),
        rendered("n=1,z=0,t=true,f=FALSE,o=01,v=1.5"));
  }

  @Test
  void argumentsApplyInTheirOrder() throws Exception {
    assertEquals(json("{'name':['x','c'],'a':'b'}"), rendered("name={x,y}", "name[1]=c"));
    assertEquals(json("{'name':['x','y'],'a':'b'}"), rendered("name[1]=c", "name={x,y}"));
  }

  @Test
  void setStringKeepsEveryValueText() throws Exception {
    assertEquals(json("{'name':['x','w','z'],'a':'b','n':'1','t':'true','gone':'null','l':['1','2']}"),
        rendered(new SetValues(List.of(), List.of("n=1,t=true,gone=null", "l={1,2}"), List.of())));
  }

  @Test
  void setFileGivesAFilesContentAsText() throws Exception {
    Path script = Files.writeString(dir.resolve("hook.sh"), "#!/bin/sh\necho 1, 2\n");
    Path number = Files.writeString(dir.resolve("n.txt"), "42");
    assertEquals(json("{'name':['x','w','z'],'a':'b','script':'#!/bin/sh\\necho 1, 2\\n','l':['42','42']}"),
        rendered(new SetValues(List.of(), List.of(), List.of("script=" + script, "l={" + number + "," + number + "}"))));
  }

  @Test
  void setThenSetStringThenSetFileWhateverTheirOrderOnTheCommandLine() throws Exception {
    Path file = Files.writeString(dir.resolve("a.txt"), "from a file");
    assertEquals(json("{'name':['x','w','z'],'a':'from a file','b':'text','c':3}"), rendered(new SetValues(
        List.of("a=1,b=2,c=3"), List.of("a=text,b=text"), List.of("a=" + file))));
  }

  @Test
  void aHookAnnotationGivenInAKeyKeepsItsResource() throws Exception {
    Path event = Files.writeString(dir.resolve("event.txt"), "pre-upgrade");
    YMap typed = configMap(new SetValues(List.of("annotations.helm\\.sh/hook=pre-install"), List.of(), List.of()));
    assertEquals("pre-install", typed.map("metadata").map("annotations").string("helm.sh/hook"));
    YMap text = configMap(new SetValues(List.of(), List.of(), List.of("annotations.helm\\.sh/hook=" + event)));
    assertEquals("pre-upgrade", text.map("metadata").map("annotations").string("helm.sh/hook"));
  }
}
