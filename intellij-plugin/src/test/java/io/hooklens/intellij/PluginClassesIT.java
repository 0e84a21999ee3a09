package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The classes plugin.xml names, loaded from the packaged jar as the IDE would load them. */
class PluginClassesIT {
  /**
   * The class-valued attributes of LSP4IJ's extension points and the type each must implement, from the
   * {@code <with attribute implements>} elements of LSP4IJ's plugin.xml (commit d21cff9). An attribute naming
   * a class that this map does not know fails the test rather than going unchecked.
   */
  private static final Map<String, String> IMPLEMENTS = Map.of(
      "server/factoryClass", "com.redhat.devtools.lsp4ij.LanguageServerFactory");

  @TempDir static Path tmp;
  private static Path plugin;
  private static URLClassLoader ide;
  private static URLClassLoader loader;

  @BeforeAll
  static void install() throws IOException {
    plugin = PackagedPlugin.unzip(tmp);
    ide = PackagedPlugin.ideLoader();
    loader = PackagedPlugin.pluginLoader(plugin, ide);
  }

  @AfterAll
  static void close() throws IOException {
    loader.close();
    ide.close();
  }

  @Test
  void theZipHasTheLayoutAnIdeInstallsFromDisk() throws IOException {
    List<String> files = new ArrayList<>();
    try (ZipFile zip = new ZipFile(PackagedPlugin.zip().toFile())) {
      zip.stream().filter(e -> !e.isDirectory()).forEach(e -> files.add(e.getName()));
    }
    assertEquals(List.of("hooklens/lib/hooklens-intellij-" + System.getProperty("hooklens.version", version()) + ".jar",
        "hooklens/server/hooklens.jar"), files.stream().sorted().toList());
  }

  /** LSP4IJ and the platform are the IDE's: a copy in the plugin would shadow or clash with them. */
  @Test
  void thePluginJarCarriesOnlyItsOwnClasses() throws IOException {
    for (Path jar : PackagedPlugin.libJars(plugin)) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        zip.stream().filter(e -> e.getName().endsWith(".class")).forEach(e ->
            assertTrue(e.getName().startsWith("io/hooklens/intellij/"), jar + " carries " + e.getName()));
      }
    }
  }

  @Test
  void everyClassInPluginXmlLoadsFromThePackagedJarAndImplementsItsExtensionPoint() throws Exception {
    Element extensions = (Element) descriptor().getElementsByTagName("extensions").item(0);
    assertEquals("com.redhat.devtools.lsp4ij", extensions.getAttribute("defaultExtensionNs"));
    int checked = 0;
    NodeList children = extensions.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (!(children.item(i) instanceof Element extension)) {
        continue;
      }
      for (int a = 0; a < extension.getAttributes().getLength(); a++) {
        Node attribute = extension.getAttributes().item(a);
        String key = extension.getTagName() + "/" + attribute.getNodeName();
        String value = attribute.getNodeValue();
        if (!value.startsWith("io.hooklens.")) {
          continue;
        }
        String type = IMPLEMENTS.get(key);
        if (type == null) {
          fail(key + " names " + value + ", but the test does not know which type that extension point wants");
        }
        Class<?> c = Class.forName(value, true, loader);
        assertEquals(PackagedPlugin.libJars(plugin).get(0), PackagedPlugin.origin(c), value + " loaded from elsewhere");
        Class<?> api = ide.loadClass(type);
        assertTrue(api.isAssignableFrom(c), value + " does not implement " + type);
        // LSP4IJ creates it with its no-argument constructor.
        assertTrue(api.isInstance(c.getConstructor().newInstance()));
        checked++;
      }
    }
    assertEquals(1, checked, "the server's factoryClass");
  }

  /** The default factory finds the plugin's folder from the jar it was loaded from, and the jar inside it. */
  @Test
  void thePackagedFactoryStartsTheServerJarOfItsOwnFolderWithTheIdesJava() throws Exception {
    List<String> command = PackagedPlugin.serverCommand(ide, loader, "io.hooklens.intellij.HooklensServerFactory");
    assertEquals(Path.of(System.getProperty("java.home"), "bin", "java").toString(), command.get(0));
    assertEquals(plugin.resolve("server/hooklens.jar").toString(), command.get(command.size() - 2));
    assertEquals("lsp", command.get(command.size() - 1));
  }

  private static org.w3c.dom.Document descriptor() throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(PackagedPlugin.open(PackagedPlugin.descriptor(plugin)));
  }

  private static String version() {
    String name = PackagedPlugin.zip().getFileName().toString();
    return name.substring("hooklens-intellij-".length(), name.length() - ".zip".length());
  }
}
