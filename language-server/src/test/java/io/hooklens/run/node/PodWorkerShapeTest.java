package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The pod worker and the classes it is made of stay readable: no method runs over {@value #MAX_LINES} lines,
 * counted by the Java compiler's own parser from the declaration to its closing brace.
 */
class PodWorkerShapeTest {
  private static final int MAX_LINES = 60;
  private static final List<String> CLASSES = List.of("PodWorker", "PodLoop", "ContainerSlot", "ContainerLauncher",
      "ContainerKiller", "PodVolumes", "PodHooks", "PodStatusWriter", "PodJournal", "Environment");

  @Test
  void noMethodOfThePodWorkerRunsOverSixtyLines() throws IOException {
    Path dir = TestPaths.repoRoot().resolve("language-server/src/main/java/io/hooklens/run/node");
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> tooLong = new ArrayList<>();
    int methods = 0;
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
      Iterable<? extends JavaFileObject> sources = files.getJavaFileObjectsFromPaths(
          CLASSES.stream().map(name -> dir.resolve(name + ".java")).toList());
      JavacTask task = (JavacTask) compiler.getTask(null, files, null, List.of("-proc:none"), null, sources);
      SourcePositions positions = Trees.instance(task).getSourcePositions();
      for (CompilationUnitTree unit : task.parse()) {
        List<MethodTree> found = new ArrayList<>();
        new TreePathScanner<Void, Void>() {
          @Override
          public Void visitMethod(MethodTree method, Void unused) {
            found.add(method);
            return super.visitMethod(method, unused);
          }
        }.scan(unit, null);
        for (MethodTree method : found) {
          long first = unit.getLineMap().getLineNumber(positions.getStartPosition(unit, method));
          long last = unit.getLineMap().getLineNumber(positions.getEndPosition(unit, method));
          if (last - first + 1 > MAX_LINES) {
            tooLong.add(unit.getSourceFile().getName() + ": " + method.getName() + " has " + (last - first + 1)
                + " lines");
          }
        }
        methods += found.size();
      }
    }
    assertTrue(methods > CLASSES.size(), "the parser found only " + methods + " methods");
    assertEquals(List.of(), tooLong);
  }
}
