package io.hooklens.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.text.Printable;
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
        "it's", "plain", "a b", "bell\u0007", "\u001b]0;title\u0007", "csi\u009b2J", "rm \u202e-rf", "tab\t");
    String line = RunPlan.shell(argv);
    assertEquals(Printable.line(line), line, "nothing in it moves the cursor or reorders the line");
    assertTrue(line.startsWith("/bin/bash -exc $'cat << EOF > req.cnf\\n[req]\\n\\tkey"), line);
    assertTrue(line.endsWith(" $'\\x1b]0;title\\x07' $'csi\\u009b2J' $'rm \\u202e-rf' $'tab\\t'"), line);
    ProcessBuilder printf = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + line);
    // bash turns its Unicode escapes back into characters only in a UTF-8 locale.
    printf.environment().put("LC_ALL", "C.UTF-8");
    Process bash = printf.start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(bash.waitFor(10, TimeUnit.SECONDS));
    assertEquals(argv, Arrays.asList(out.split("\0", -1)).subList(0, argv.size()));
  }
}
