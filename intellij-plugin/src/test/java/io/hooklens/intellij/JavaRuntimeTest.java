package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaRuntimeTest {
  /** The JDK running the tests stands for the IDE's runtime and for a runtime the user names. */
  private static final Path THIS_JAVA = Path.of(System.getProperty("java.home"));

  @TempDir Path tmp;

  @Test
  void usesTheIdesOwnRuntimeWhenNoneIsNamed() throws Exception {
    JavaRuntime runtime = JavaRuntime.resolve(null, " ", THIS_JAVA.toString());
    assertEquals(THIS_JAVA, runtime.home());
    assertEquals(THIS_JAVA.resolve("bin/java"), runtime.java());
    assertEquals("the IDE's runtime", runtime.source());
  }

  @Test
  void theVmOptionWinsOverTheEnvironmentVariable() throws Exception {
    Path other = fakeRuntime("other", "21.0.3");
    JavaRuntime runtime = JavaRuntime.resolve(THIS_JAVA.toString(), other.toString(), "/ide/jbr");
    assertEquals(THIS_JAVA.resolve("bin/java"), runtime.java());
    assertTrue(runtime.source().contains(JavaRuntime.PROPERTY), runtime.source());
  }

  @Test
  void theEnvironmentVariableWinsOverTheIdesRuntime() throws Exception {
    Path other = fakeRuntime("other", "21.0.3");
    JavaRuntime runtime = JavaRuntime.resolve(null, other + " ", "/ide/jbr");
    assertEquals(other.resolve("bin/java"), runtime.java());
    assertTrue(runtime.source().contains(JavaRuntime.ENVIRONMENT), runtime.source());
  }

  @Test
  void aNamedFolderWithoutJavaIsAnErrorNotAFallback() {
    JavaRuntime.NotUsable e = assertThrows(JavaRuntime.NotUsable.class,
        () -> JavaRuntime.resolve(tmp.toString(), null, THIS_JAVA.toString()));
    assertTrue(e.getMessage().contains(JavaRuntime.PROPERTY) && e.getMessage().contains(tmp.toString())
        && e.getMessage().contains("bin/java"), e.getMessage());
  }

  @Test
  void aNamedJavaOlderThan17IsRefused() throws IOException {
    Path old = fakeRuntime("old", "11.0.2");
    JavaRuntime.NotUsable e = assertThrows(JavaRuntime.NotUsable.class,
        () -> JavaRuntime.resolve(null, old.toString(), THIS_JAVA.toString()));
    assertTrue(e.getMessage().contains("Java 11") && e.getMessage().contains(JavaRuntime.ENVIRONMENT), e.getMessage());
  }

  @Test
  void readsTheMajorVersionFromTheReleaseFile() throws IOException {
    assertEquals(Optional.of(Runtime.version().feature()), JavaRuntime.releaseMajor(THIS_JAVA));
    assertEquals(Optional.of(8), JavaRuntime.releaseMajor(fakeRuntime("eight", "1.8.0_292")));
    assertEquals(Optional.empty(), JavaRuntime.releaseMajor(tmp));
  }

  /** A runtime folder as a JDK lays it out: an executable bin/java and a release file naming the version. */
  private Path fakeRuntime(String name, String version) throws IOException {
    Path home = Files.createDirectories(tmp.resolve(name));
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"" + version + "\"\n");
    return home;
  }
}
