package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.intellij.mock.MockProject;
import com.intellij.openapi.Disposable;
import com.intellij.openapi.project.Project;
import com.intellij.openapi.util.Disposer;
import com.redhat.devtools.lsp4ij.server.CannotStartProcessException;
import com.redhat.devtools.lsp4ij.server.StreamConnectionProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HooklensServerFactoryTest {
  private static final Path THIS_JAVA = Path.of(System.getProperty("java.home"));

  @TempDir Path tmp;
  private Disposable disposable;
  private Project project;

  @BeforeEach
  void project() {
    disposable = Disposer.newDisposable();
    // The platform's core project; it has no folder of its own, which an IDE project opened from disk has.
    project = new MockProject(null, disposable) {
      @Override
      public String getBasePath() {
        return "/home/me/charts";
      }
    };
  }

  @AfterEach
  void dispose() {
    Disposer.dispose(disposable);
  }

  @Test
  void startsTheJarInsideThePluginWithTheRuntimeItFinds() throws Exception {
    Path plugin = installedPlugin();
    JavaRuntime runtime = JavaRuntime.resolve(null, null, THIS_JAVA.toString());
    HooklensServerFactory factory = new HooklensServerFactory(() -> plugin, () -> runtime);

    StreamConnectionProvider provider = factory.createConnectionProvider(project);

    HooklensConnectionProvider process = assertInstanceOf(HooklensConnectionProvider.class, provider);
    assertEquals(ServerCommand.of(runtime, plugin.resolve("server/hooklens.jar")), process.getCommands());
    assertEquals(THIS_JAVA.resolve("bin/java").toString(), process.getCommands().get(0));
    assertEquals("/home/me/charts", process.getWorkingDirectory());
    // The IDE's environment (PATH, KUBECONFIG, proxies) reaches the server and the hooks it runs.
    assertTrue(process.isIncludeSystemEnvironmentVariables());
    assertTrue(process.getUserEnvironmentVariables().isEmpty());
  }

  @Test
  void aMissingServerJarSaysWhereItShouldBe() throws IOException {
    Path plugin = Files.createDirectories(tmp.resolve("hooklens/lib"));
    HooklensServerFactory factory = new HooklensServerFactory(() -> plugin.getParent(),
        () -> JavaRuntime.resolve(null, null, THIS_JAVA.toString()));

    CannotStartProcessException e =
        assertThrows(CannotStartProcessException.class, () -> factory.createConnectionProvider(project));
    assertTrue(e.getMessage().contains(plugin.getParent().resolve("server/hooklens.jar").toString())
        && e.getMessage().contains("reinstall"), e.getMessage());
  }

  @Test
  void aRuntimeThatCannotRunTheServerIsReportedToTheUser() throws IOException {
    Path plugin = installedPlugin();
    Path empty = Files.createDirectories(tmp.resolve("not-a-jdk"));
    HooklensServerFactory factory =
        new HooklensServerFactory(() -> plugin, () -> JavaRuntime.resolve(empty.toString(), null, THIS_JAVA.toString()));

    CannotStartProcessException e =
        assertThrows(CannotStartProcessException.class, () -> factory.createConnectionProvider(project));
    assertTrue(e.getMessage().contains(JavaRuntime.PROPERTY) && e.getMessage().contains(empty.toString()),
        e.getMessage());
  }

  /** LSP4IJ shows the Configuration tab only when the factory's contributor has a configuration contributor. */
  @Test
  void contributesTheServersConfiguration() {
    var contributor = new HooklensServerFactory().createLanguageServerSettingsContributor();
    assertNotNull(contributor);
    assertInstanceOf(HooklensSettings.class, contributor.getServerConfigurationContributor());
    assertSame(contributor, contributor.getServerConfigurationContributor());
  }

  private Path installedPlugin() throws IOException {
    Path plugin = tmp.resolve("hooklens");
    Files.createDirectories(plugin.resolve("lib"));
    Files.createDirectories(plugin.resolve("server"));
    Files.writeString(plugin.resolve("server/hooklens.jar"), "");
    return plugin;
  }
}
