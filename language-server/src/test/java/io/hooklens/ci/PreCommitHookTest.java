package io.hooklens.ci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hooklens.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository as a pre-commit hook repository, with the real pre-commit from PyPI (installed in a virtual
 * environment in the test's folder; skipped when that cannot be done): a project's {@code
 * .pre-commit-config.yaml}, the one docs/ci.md shows, points at a git copy of the repository's {@code
 * .pre-commit-hooks.yaml} and launcher, and {@code git commit} runs the hook.
 */
@Tag("slow")
class PreCommitHookTest {
  @TempDir
  Path dir;

  @Test
  void aBadManifestBlocksTheCommitAndACleanOnePasses() throws Exception {
    Path venv = dir.resolve("venv");
    Shell made = Shell.run(dir, Map.of(), List.of("python3", "-m", "venv", venv.toString()));
    assumeTrue(made.exit() == 0, "python3 -m venv cannot make a virtual environment: " + made.err());
    Shell pip = Shell.run(dir, Map.of(), List.of(venv.resolve("bin/pip").toString(), "install", "-q",
        "--disable-pip-version-check", "pre-commit"));
    assumeTrue(pip.exit() == 0, "pip cannot install pre-commit from PyPI: " + pip.err());

    Map<String, String> env = new HashMap<>();
    env.put("PRE_COMMIT_HOME", dir.resolve("pre-commit-home").toString());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("GIT_CONFIG_GLOBAL", "/dev/null");
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("GIT_AUTHOR_NAME", "Dev");
    env.put("GIT_AUTHOR_EMAIL", "dev@example.com");
    env.put("GIT_COMMITTER_NAME", "Dev");
    env.put("GIT_COMMITTER_EMAIL", "dev@example.com");

    Path hooks = CliCheckout.create(dir.resolve("hooklens"), ".pre-commit-hooks.yaml");
    git(hooks, env, "init", "-q");
    git(hooks, env, "add", "-A");
    git(hooks, env, "commit", "-q", "-m", "hooklens");
    String rev = git(hooks, env, "rev-parse", "HEAD").out().strip();

    Path project = Files.createDirectories(dir.resolve("project"));
    git(project, env, "init", "-q");
    String config = DocSnippets.ciYaml("id: hooklens")
        .replaceFirst("repo: \\S+", "repo: " + hooks)
        .replaceFirst("rev: \\S+", "rev: " + rev);
    Files.writeString(project.resolve(".pre-commit-config.yaml"), config);
    Shell installed = Shell.run(project, env, List.of(venv.resolve("bin/pre-commit").toString(), "install"));
    assertEquals(0, installed.exit(), installed.both());

    Path examples = TestPaths.repoRoot().resolve("examples");
    Files.createDirectories(project.resolve("k8s"));
    Files.copy(examples.resolve("web.yaml"), project.resolve("k8s/web.yaml"));
    Path chart = project.resolve("charts/shop");
    Files.createDirectories(chart.resolve("templates/tests"));
    Files.copy(examples.resolve("shop/Chart.yaml"), chart.resolve("Chart.yaml"));
    Files.copy(examples.resolve("shop/values.yaml"), chart.resolve("values.yaml"));
    Files.copy(examples.resolve("shop/templates/tests/smoke-test.yaml"), chart.resolve("templates/tests/smoke-test.yaml"));
    git(project, env, "add", "-A");
    Shell blocked = Shell.run(project, env, List.of("git", "commit", "-m", "bad"));
    assertNotEquals(0, blocked.exit(), blocked.both());
    String said = blocked.out() + blocked.err();
    assertTrue(said.contains("k8s/web.yaml:26:13: warning HL401"), said);
    assertTrue(said.contains("k8s/web.yaml:33:23: error HL110"), said);
    // The template is linted on its own, its actions masked; the Chart.yaml that would render it is left out.
    assertTrue(said.contains("charts/shop/templates/tests/smoke-test.yaml:7:1: error HL216"), said);
    assertFalse(said.contains("[values:"), "no chart was rendered: " + said);
    assertNotEquals(0, Shell.run(project, env, List.of("git", "rev-parse", "-q", "--verify", "HEAD")).exit(),
        "nothing was committed");

    git(project, env, "rm", "-q", "--cached", "k8s/web.yaml", "charts/shop/templates/tests/smoke-test.yaml");
    Files.copy(examples.resolve("good.yaml"), project.resolve("k8s/good.yaml"));
    git(project, env, "add", "k8s/good.yaml");
    Shell passed = Shell.run(project, env, List.of("git", "commit", "-m", "clean"));
    assertEquals(0, passed.exit(), passed.both());
    assertTrue((passed.out() + passed.err()).matches("(?s).*hooklens\\.+Passed.*"), passed.both());
    List<String> committed = List.of(git(project, env, "ls-tree", "-r", "--name-only", "HEAD").out().split("\n"));
    assertTrue(committed.contains("k8s/good.yaml"), committed.toString());
    assertFalse(committed.contains("k8s/web.yaml"), committed.toString());
  }

  private static Shell git(Path dir, Map<String, String> env, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(args));
    Shell r = Shell.run(dir, env, argv);
    assertEquals(0, r.exit(), String.join(" ", argv) + "\n" + r.both());
    return r;
  }
}
