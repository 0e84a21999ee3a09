package io.hooklens.intellij;

import com.intellij.openapi.project.Project;
import com.redhat.devtools.lsp4ij.LanguageServerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The built zip, unpacked as an IDE installs it, and its classes loaded as the IDE loads them: the plugin's
 * {@code lib/} jars in a loader of their own, over a loader of the platform and LSP4IJ classes. Nothing of the
 * module's own target/classes is seen, so the tests exercise what ships.
 */
final class PackagedPlugin {
  /** The zip's top folder: the plugin's folder once installed. */
  static final String FOLDER = "hooklens";

  private PackagedPlugin() {}

  static Path zip() {
    Path zip = Path.of(System.getProperty("hooklens.pluginZip"));
    if (!Files.isRegularFile(zip)) {
      throw new IllegalStateException(zip + " is missing: these tests run after the package phase (mvn verify)");
    }
    return zip;
  }

  /** Unpacks the zip into {@code dir}; returns the plugin's folder. */
  static Path unzip(Path dir) throws IOException {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip()))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        Path target = dir.resolve(e.getName()).normalize();
        if (!target.startsWith(dir)) {
          throw new IOException("entry outside the zip's folder: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(in, target);
        }
      }
    }
    return dir.resolve(FOLDER);
  }

  static List<Path> libJars(Path plugin) throws IOException {
    try (Stream<Path> jars = Files.list(plugin.resolve("lib"))) {
      return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
  }

  /**
   * The IDE's side: the platform classes (kotlin-compiler's copy), LSP4IJ's signatures, lsp4j, and the
   * libraries the platform's core project needs, found where the test's own class path has them.
   */
  static URLClassLoader ideLoader() {
    List<URL> urls = new ArrayList<>();
    for (Class<?> c : new Class<?>[] {Project.class, LanguageServerFactory.class,
        org.eclipse.lsp4j.services.LanguageServer.class, org.eclipse.lsp4j.jsonrpc.messages.Message.class,
        com.google.gson.Gson.class, kotlinx.coroutines.Dispatchers.class, kotlin.Unit.class}) {
      urls.add(c.getProtectionDomain().getCodeSource().getLocation());
    }
    return new URLClassLoader("ide", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  /** The plugin's loader: its lib/ jars only, over the IDE's loader. */
  static URLClassLoader pluginLoader(Path plugin, ClassLoader ide) throws IOException {
    List<URL> urls = new ArrayList<>();
    for (Path jar : libJars(plugin)) {
      urls.add(jar.toUri().toURL());
    }
    return new URLClassLoader("hooklens", urls.toArray(URL[]::new), ide);
  }

  /** Where a class was loaded from. */
  static Path origin(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A project of the platform's core, created in the IDE's loader; it has no folder of its own. */
  static Object project(ClassLoader ide) throws ReflectiveOperationException {
    Class<?> disposer = ide.loadClass("com.intellij.openapi.util.Disposer");
    Object disposable = disposer.getMethod("newDisposable").invoke(null);
    Class<?> mock = ide.loadClass("com.intellij.mock.MockProject");
    return mock.getConstructor(ide.loadClass("org.picocontainer.PicoContainer"),
        ide.loadClass("com.intellij.openapi.Disposable")).newInstance(null, disposable);
  }

  /**
   * What LSP4IJ does with the plugin.xml's factoryClass: creates it with its no-argument constructor and asks
   * it for the connection provider of a project; returns the command the provider would start.
   */
  @SuppressWarnings("unchecked")
  static List<String> serverCommand(ClassLoader ide, ClassLoader plugin, String factoryClass)
      throws ReflectiveOperationException {
    Object factory = plugin.loadClass(factoryClass).getConstructor().newInstance();
    Class<?> api = ide.loadClass(LanguageServerFactory.class.getName());
    Method create = api.getMethod("createConnectionProvider", ide.loadClass(Project.class.getName()));
    Object provider = create.invoke(factory, project(ide));
    Method commands = ide.loadClass("com.redhat.devtools.lsp4ij.server.ProcessDataProvider").getMethod("getCommands");
    return (List<String>) commands.invoke(provider);
  }

  /** The packaged plugin.xml. */
  static byte[] descriptor(Path plugin) throws IOException {
    for (Path jar : libJars(plugin)) {
      try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
        for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
          if (e.getName().equals("META-INF/plugin.xml")) {
            return in.readAllBytes();
          }
        }
      }
    }
    throw new IOException("no META-INF/plugin.xml in " + plugin.resolve("lib"));
  }

  static InputStream open(byte[] bytes) {
    return new java.io.ByteArrayInputStream(bytes);
  }
}
