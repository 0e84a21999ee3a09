package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How a plan shows a command for consent: one line that a shell reads back as the very same words. */
@Tag("slow")
class RunPlanTest {
  @Test
  void aCommandIsShownOnOneLineThatBashReadsBackWordForWord() throws Exception {
    List<String> argv = List.of("/bin/bash", "-exc", "cat << EOF > req.cnf\n[req]\n\tkey = 'v' \\ $HOME\nEOF",
        "it's", "plain", "a b", "bell\u0007");
    String line = RunPlan.shell(argv);
    assertFalse(line.contains("\n"), line);
    assertTrue(line.startsWith("/bin/bash -exc $'cat << EOF > req.cnf\\n[req]\\n\\tkey"), line);
    Process bash = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + line).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(bash.waitFor(10, TimeUnit.SECONDS));
    assertEquals(argv, Arrays.asList(out.split("\0", -1)).subList(0, argv.size()));
  }
}
