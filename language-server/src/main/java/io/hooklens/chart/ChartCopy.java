package io.hooklens.chart;

import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The copy of a chart that Helm renders instead of the chart itself: every text file rewritten by
 * {@link HelmText} (hook annotations hidden, {@code lookup} answered without a cluster), and the
 * subchart archives in {@code charts/} unpacked so that their templates are rewritten too. The copy is
 * one archive in a temporary directory, holding the files Helm would load from the rewritten chart
 * folder (its {@code .helmignore} applied as Helm applies it); writing one file instead of a tree of
 * them is most of what makes linting a chart cost little more than rendering it. A {@code .helmignore}
 * Helm would refuse, or with a glob {@link HelmIgnore} does not translate, gets a folder instead, so that
 * Helm applies it itself. The copy remembers where each file came from, so that rendered documents and
 * Helm's messages can be mapped back to the chart as written. Closing it deletes the copy.
 */
final class ChartCopy implements AutoCloseable {
  /**
   * A file of the chart as the user knows it.
   *
   * @param displayName its name in reports: the chart's path as given joined with the file's path in it;
   *     inside a subchart archive, the archive's name joined with the path in the archive
   * @param file the file on disk, or null for a file inside an archive
   * @param decoded the text, when it was read as UTF-8 already, or null
   */
  record Origin(String displayName, Path file, String decoded) {
    /** The text as written; undecodable bytes are replaced, since it is only shown and parsed. */
    String text() throws IOException {
      if (decoded != null) {
        return decoded;
      }
      return file == null ? "" : new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }
  }

  /** A file of the copy: its bytes as Helm reads them, and the file they came from. */
  private record Entry(byte[] bytes, Origin origin) {}

  /**
   * A dependency a chart declares and does not have in its {@code charts/}, stubbed in the copy: Helm refuses a
   * chart with any missing dependency, enabled or not, so the stub lets the chart's own templates render.
   *
   * @param name the dependency's name
   * @param declaredIn the Chart.yaml (or requirements.yaml) that declares it
   * @param line the 0-based line of its entry there
   */
  record Stub(String name, Origin declaredIn, int line) {}

  private static final String CHART_YAML = "Chart.yaml";
  /** The archive's top folder; Helm drops the first element of every path in a chart archive. */
  private static final String TOP = "chart/";
  /** The file of the copy that defines the named templates of stubbed dependencies. */
  private static final String STUB_DEFINITIONS = "templates/_hooklens-stubbed-dependencies.tpl";
  /** An action that branches on the namespace; {@code [^}]} keeps the match within one action, and linear. */
  private static final Pattern NAMESPACE_BRANCH =
      Pattern.compile("\\{\\{-?\\s*(?:if|else\\s+if|with)\\b[^}]*\\.Release\\.Namespace");

  private final Path temp;
  private final Path chartDir;
  /** The copy's files by their path in the chart ({@code templates/job.yaml}), in archive order. */
  private final TreeMap<String, Entry> files = new TreeMap<>();
  private final Map<Path, Origin> valuesOrigins = new HashMap<>();
  /** Paths of the copy that Helm may print, and what to print instead; values files first. */
  private final Map<String, String> messagePaths = new LinkedHashMap<>();
  private final Map<String, String> subcharts = new HashMap<>();
  private final List<Stub> stubs = new ArrayList<>();
  private Path root;
  private int valueFiles;

  private ChartCopy(Path temp, Path chartDir) {
    this.temp = temp;
    this.chartDir = chartDir;
  }

  /** Copies a chart; the copy is deleted again when copying fails. */
  static ChartCopy of(Path chartDir) throws IOException {
    return of(chartDir, false);
  }

  /**
   * Copies a chart, with the archives {@code helm dependency build} fetches in its {@code charts/} when asked
   * ({@link DependencyBuild}): they go to the copy, never to the chart.
   *
   * @throws ChartLinter.DependenciesFailed when Helm cannot build the dependencies
   */
  static ChartCopy of(Path chartDir, boolean buildDependencies) throws IOException {
    ChartCopy copy = new ChartCopy(Files.createTempDirectory("hooklens-chart-"), chartDir);
    try {
      TreeMap<String, byte[]> read = copy.read();
      if (buildDependencies) {
        DependencyBuild.build(chartDir, copy.temp.resolve("dependencies"), read);
      }
      copy.add(read);
      copy.stubMissingDependencies();
      copy.write();
    } catch (IOException | RuntimeException e) {
      copy.close();
      throw e;
    }
    return copy;
  }

  /** What Helm renders: the copy's archive, or its folder. */
  Path root() {
    return root;
  }

  /** The dependencies stubbed in the copy, in the order their charts declare them. */
  List<Stub> stubs() {
    return List.copyOf(stubs);
  }

  /** The chart's {@code Chart.yaml}. */
  Origin chartYaml() {
    return file(CHART_YAML);
  }

  /** The chart's name as its Chart.yaml gives it, or null. */
  String chartName() throws IOException {
    Origin o = chartYaml();
    return o == null ? null : chartMetadata(o.text().getBytes(StandardCharsets.UTF_8)).map(m -> m.string("name"))
        .orElse(null);
  }

  /** How reports name a path relative to the chart. */
  String displayName(String relative) {
    return chartDir.resolve(relative).toString();
  }

  /** A file of the copy by its path relative to the chart, or null. */
  Origin file(String relative) {
    Entry e = files.get(normalize(relative));
    return e == null ? null : e.origin();
  }

  /** The chart file at a path on disk, when the path is inside the chart; or null. */
  Origin inChart(Path file) {
    Path dir = chartDir.toAbsolutePath().normalize();
    return file.startsWith(dir) ? file(dir.relativize(file).toString()) : null;
  }

  private static String normalize(String relative) {
    return Path.of(relative).normalize().toString();
  }

  /** The chart's regular files by their path in it; version control data left out, links followed. */
  private TreeMap<String, byte[]> read() throws IOException {
    TreeMap<String, byte[]> out = new TreeMap<>();
    Files.walkFileTree(chartDir, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
            // Version control data is no part of a chart and can be far larger than it.
            boolean vcs = !d.equals(chartDir) && d.getFileName().toString().equals(".git");
            return vcs ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
            if (attrs.isRegularFile()) {
              out.put(chartDir.relativize(f).toString(), Files.readAllBytes(f));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
            // A symbolic link back up the tree; Helm's own loader does not follow it either.
            if (e instanceof FileSystemLoopException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    return out;
  }

  private void add(TreeMap<String, byte[]> chart) {
    for (Map.Entry<String, byte[]> f : chart.entrySet()) {
      String rel = f.getKey();
      String display = displayName(rel);
      if (!isArchivedSubchart(rel) || !unpack(rel, f.getValue(), display, chart)) {
        add(rel, f.getValue(), new Origin(display, chartDir.resolve(rel), null));
      }
    }
  }

  private static boolean isArchivedSubchart(String rel) {
    int slash = rel.lastIndexOf('/');
    String folder = slash < 0 ? "" : rel.substring(0, slash);
    return rel.endsWith(".tgz") && (folder.equals("charts") || folder.endsWith("/charts"));
  }

  /**
   * Unpacks a subchart archive next to it, as the folder Helm would load in its place; false when it
   * cannot be read (Helm then reports the archive itself) or the chart has a folder of that name.
   */
  private boolean unpack(String archive, byte[] bytes, String display, TreeMap<String, byte[]> chart) {
    List<TarGz.Entry> entries;
    try {
      entries = TarGz.read(bytes);
    } catch (IOException e) {
      return false;
    }
    String dir = archive.substring(0, archive.length() - ".tgz".length()) + "/";
    if (hasFolder(chart, dir) || hasFolder(files, dir)) {
      return false;
    }
    for (TarGz.Entry e : entries) {
      int slash = e.path().indexOf('/');
      if (slash < 0) {
        continue;
      }
      String target = normalize(dir + e.path().substring(slash + 1));
      if (!target.startsWith(dir) || target.equals(dir)) {
        continue;
      }
      String inner = display + "/" + e.path();
      if (!isArchivedSubchart(target) || !unpack(target, e.data(), inner, chart)) {
        add(target, e.data(), new Origin(inner, null, null));
      }
    }
    return true;
  }

  private static boolean hasFolder(TreeMap<String, ?> files, String dir) {
    String after = files.ceilingKey(dir);
    return after != null && after.startsWith(dir);
  }

  private void add(String rel, byte[] bytes, Origin origin) {
    String text = utf8(bytes);
    if (text == null) {
      files.put(rel, new Entry(bytes, origin));
      return;
    }
    String rewritten = HelmText.hideHooks(text);
    if (isTemplate(rel)) {
      rewritten = HelmText.emptyLookups(rewritten);
    }
    // Most files have nothing to rewrite: their bytes go to Helm as they are.
    byte[] copied = rewritten.equals(text) ? bytes : rewritten.getBytes(StandardCharsets.UTF_8);
    files.put(rel, new Entry(copied, new Origin(origin.displayName(), origin.file(), text)));
  }

  private static boolean isTemplate(String rel) {
    return rel.startsWith("templates/") || rel.contains("/templates/");
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * Stubs every declared dependency the chart (or a subchart in it) lacks: a chart with only a Chart.yaml in its
   * place, so that Helm's check passes and the dependency's values are taken as usual; and, since templates
   * of the chart may include the dependency's named templates, an empty definition for every named template
   * that is used and that no file of the copy defines. Helm's namespace of named templates is one for the
   * chart and its subcharts, so the definitions go in one file of the chart's own; a file whose name starts
   * with {@code _} renders nothing.
   */
  private void stubMissingDependencies() {
    List<String> charts = new ArrayList<>();
    for (String rel : files.keySet()) {
      if (rel.equals(CHART_YAML) || rel.endsWith("/" + CHART_YAML) && isSubchartDir(rel)) {
        charts.add(rel.substring(0, rel.length() - CHART_YAML.length()));
      }
    }
    for (String dir : charts) {
      Map<String, String> vendored = new HashMap<>();
      for (String sub : charts) {
        if (sub.startsWith(dir + "charts/") && sub.indexOf('/', dir.length() + "charts/".length()) == sub.length() - 1) {
          chartMetadata(files.get(sub + CHART_YAML).bytes()).map(m -> m.string("name"))
              .ifPresent(n -> vendored.put(n, sub));
        }
      }
      for (String file : List.of(CHART_YAML, "requirements.yaml")) {
        Entry e = files.get(dir + file);
        YSeq deps = e == null ? null : chartMetadata(e.bytes()).map(x -> x.seq("dependencies")).orElse(null);
        for (YNode d : deps == null ? List.<YNode>of() : deps.items()) {
          YMap dep = d.asMap();
          String name = dep == null ? null : dep.string("name");
          String folder = dir + "charts/" + name + "/";
          if (name == null || !name.matches("[\\w.-]+") || vendored.containsKey(name) || hasFolder(files, folder)) {
            continue;
          }
          String text = "apiVersion: v2\nname: " + name + "\nversion: 0.0.0\n";
          files.put(folder + CHART_YAML, new Entry(text.getBytes(StandardCharsets.UTF_8),
              new Origin(displayName(folder + CHART_YAML), null, text)));
          vendored.put(name, folder);
          stubs.add(new Stub(name, e.origin(), dep.range().start().line()));
        }
      }
    }
    if (!stubs.isEmpty()) {
      String definitions = NamedTemplates.undefined(textsOfTemplates());
      if (!definitions.isEmpty()) {
        files.put(STUB_DEFINITIONS, new Entry(definitions.getBytes(StandardCharsets.UTF_8),
            new Origin(displayName(STUB_DEFINITIONS), null, definitions)));
      }
    }
  }

  /** Whether a Chart.yaml's folder is a subchart's: {@code charts/NAME/Chart.yaml}, at any depth. */
  private static boolean isSubchartDir(String chartYaml) {
    String dir = chartYaml.substring(0, chartYaml.length() - CHART_YAML.length() - 1);
    int slash = dir.lastIndexOf('/');
    return slash > 0 && (dir.substring(0, slash).equals("charts") || dir.substring(0, slash).endsWith("/charts"));
  }

  /** The text of every file of the copy that Helm reads as a template: templates, and values a tpl may render. */
  private List<String> textsOfTemplates() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Entry> f : files.entrySet()) {
      String text = f.getValue().origin().decoded();
      if (text != null && (isTemplate(f.getKey()) || f.getKey().endsWith(".yaml"))) {
        out.add(text);
      }
    }
    return out;
  }

  /** The chart's own templates as written, subcharts' included, that are text: where its named templates are. */
  List<Origin> templates() {
    List<Origin> out = new ArrayList<>();
    for (Map.Entry<String, Entry> f : files.entrySet()) {
      Origin o = f.getValue().origin();
      if (o.decoded() != null && isTemplate(f.getKey()) && !f.getKey().equals(STUB_DEFINITIONS)) {
        out.add(o);
      }
    }
    return out;
  }

  /**
   * Whether a template of the copy branches on the namespace: {@code .Release.Namespace} in an {@code if},
   * {@code else if} or {@code with} action, so that another namespace may render other resources.
   */
  boolean branchesOnNamespace() {
    for (Map.Entry<String, Entry> f : files.entrySet()) {
      String text = f.getValue().origin().decoded();
      if (text != null && isTemplate(f.getKey()) && text.contains(".Release.Namespace")
          && NAMESPACE_BRANCH.matcher(text).find()) {
        return true;
      }
    }
    return false;
  }

  /** Writes what Helm loads: the archive when the chart's .helmignore can be applied here, else a folder. */
  private void write() throws IOException {
    Entry ignoreFile = files.get(".helmignore");
    String ignoreText = ignoreFile == null ? null : utf8(ignoreFile.bytes());
    Optional<HelmIgnore> rules = ignoreFile != null && ignoreText == null ? Optional.empty()
        : HelmIgnore.parse(ignoreText);
    if (rules.isPresent()) {
      Map<String, byte[]> loaded = new LinkedHashMap<>();
      Map<String, Boolean> folders = new HashMap<>();
      for (Map.Entry<String, Entry> f : files.entrySet()) {
        if (!ignored(f.getKey(), rules.get(), folders)) {
          loaded.put(TOP + f.getKey(), f.getValue().bytes());
        }
      }
      root = temp.resolve("chart.tgz");
      Files.write(root, TarGz.write(loaded));
    } else {
      root = temp.resolve("chart");
      for (Map.Entry<String, Entry> f : files.entrySet()) {
        Path target = root.resolve(f.getKey());
        Files.createDirectories(target.getParent());
        Files.write(target, f.getValue().bytes());
      }
    }
  }

  /** Whether Helm leaves a file out: it or one of its folders is ignored (folders by their path, cached). */
  private static boolean ignored(String rel, HelmIgnore rules, Map<String, Boolean> folders) {
    for (int slash = rel.indexOf('/'); slash >= 0; slash = rel.indexOf('/', slash + 1)) {
      if (folders.computeIfAbsent(rel.substring(0, slash), d -> rules.ignores(d, true))) {
        return true;
      }
    }
    return rules.ignores(rel, false);
  }

  /** Copies a values file beside the chart, rewritten like the chart, for Helm to read. */
  Path values(ValuesSet set) throws IOException {
    // A name of our own: helm-java passes values files to Helm as one comma-separated list.
    Path target = temp.resolve("values-" + (valuesOrigins.size() + 1) + ".yaml");
    writeRewritten(target, Files.readAllBytes(set.file()));
    messagePaths.put(target.toString(), set.label());
    valuesOrigins.put(target.normalize(), new Origin(set.label(), set.file(), null));
    return target;
  }

  /** Writes one value given on the command line beside the chart, rewritten like the chart, for Helm to read. */
  Path value(byte[] bytes) throws IOException {
    Path target = temp.resolve("value-" + ++valueFiles);
    writeRewritten(target, bytes);
    return target;
  }

  private static void writeRewritten(Path target, byte[] bytes) throws IOException {
    String text = utf8(bytes);
    if (text == null) {
      Files.write(target, bytes);
    } else {
      Files.writeString(target, HelmText.hideHooks(text), StandardCharsets.UTF_8);
    }
  }

  /** The origin of a values file that {@link #values} copied, by the path Helm was given. */
  Origin valuesOrigin(Path copied) {
    return valuesOrigins.get(copied.normalize());
  }

  /** A message of Helm's with the copy's paths replaced by the names the user knows. */
  String forReport(String message) {
    String m = message;
    for (Map.Entry<String, String> e : messagePaths.entrySet()) {
      m = m.replace(e.getKey(), e.getValue());
    }
    return m.replace(root.toString(), chartDir.toString());
  }

  /**
   * The file a {@code # Source:} path names ({@code demo/charts/db/templates/job.yaml}): Helm writes
   * the chart's name, then {@code charts/NAME} for each subchart by its name or alias, then the path.
   */
  Origin source(String sourcePath) {
    String[] parts = sourcePath.split("/");
    String dir = "";
    int i = 1;
    while (i + 2 < parts.length && parts[i].equals("charts")) {
      dir = subchart(dir, parts[i + 1]);
      if (dir == null) {
        return null;
      }
      i += 2;
    }
    if (i >= parts.length) {
      return null;
    }
    return file(dir + String.join("/", List.of(parts).subList(i, parts.length)));
  }

  /** The folder ({@code charts/db/}) of the subchart Helm calls {@code name}: by folder, chart name or alias. */
  private String subchart(String dir, String name) {
    String key = dir + "\n" + name;
    if (subcharts.containsKey(key)) {
      return subcharts.get(key);
    }
    String charts = dir + "charts/";
    Map<String, String> byChartName = new HashMap<>();
    for (Map.Entry<String, Entry> f : files.tailMap(charts).entrySet()) {
      String rel = f.getKey();
      if (!rel.startsWith(charts)) {
        break;
      }
      int slash = rel.indexOf('/', charts.length());
      if (slash >= 0 && rel.substring(slash + 1).equals(CHART_YAML)) {
        String folder = rel.substring(0, slash + 1);
        chartMetadata(f.getValue().bytes()).map(m -> m.string("name"))
            .ifPresent(n -> byChartName.putIfAbsent(n, folder));
      }
    }
    String found = byChartName.get(name);
    if (found == null) {
      String aliased = aliases(dir).get(name);
      found = aliased == null ? null : byChartName.get(aliased);
    }
    if (found == null && files.containsKey(charts + name + "/" + CHART_YAML)) {
      found = charts + name + "/";
    }
    subcharts.put(key, found);
    return found;
  }

  /** Aliases of a chart's dependencies (Chart.yaml, or requirements.yaml of apiVersion v1 charts). */
  private Map<String, String> aliases(String dir) {
    Map<String, String> out = new HashMap<>();
    for (String file : List.of(CHART_YAML, "requirements.yaml")) {
      Entry e = files.get(dir + file);
      YSeq deps = e == null ? null : chartMetadata(e.bytes()).map(x -> x.seq("dependencies")).orElse(null);
      if (deps == null) {
        continue;
      }
      for (YNode d : deps.items()) {
        YMap dep = d.asMap();
        if (dep != null && dep.string("alias") != null && dep.string("name") != null) {
          out.put(dep.string("alias"), dep.string("name"));
        }
      }
    }
    return out;
  }

  /**
   * The names of the CustomResourceDefinitions in the chart's {@code crds/} directories and its subcharts',
   * which Helm installs as they are, before the templates.
   */
  Set<String> crdNames() {
    Set<String> names = new TreeSet<>();
    for (Map.Entry<String, Entry> f : files.entrySet()) {
      String rel = f.getKey();
      boolean crd = rel.startsWith("crds/") || rel.matches("(charts/[^/]+/)+crds/.*");
      String text = crd && rel.matches(".*\\.(yaml|yml|json)") ? f.getValue().origin().decoded() : null;
      if (text == null) {
        continue;
      }
      for (YamlDocument d : new YamlReader().read(new SourceText(text), false).documents()) {
        YMap root = d.root() == null ? null : d.root().asMap();
        YMap metadata = root == null ? null : root.map("metadata");
        if (metadata != null && "CustomResourceDefinition".equals(root.string("kind"))
            && metadata.string("name") != null) {
          names.add(metadata.string("name"));
        }
      }
    }
    return names;
  }

  /** The first mapping of a chart's metadata file (Chart.yaml, requirements.yaml), if it has one. */
  static Optional<YMap> chartMetadata(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return chartMetadata(Files.readAllBytes(file));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static Optional<YMap> chartMetadata(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    List<YamlDocument> docs = new YamlReader().read(new SourceText(text), false).documents();
    return docs.stream().map(YamlDocument::root).filter(r -> r != null && r.asMap() != null)
        .map(YNode::asMap).findFirst();
  }

  /** Deletes the copy; a file that cannot be deleted is left in the temporary directory. */
  @Override
  public void close() {
    List<Path> all = new ArrayList<>();
    try (var walk = Files.walk(temp)) {
      walk.forEach(all::add);
    } catch (IOException e) {
      return;
    }
    for (int i = all.size() - 1; i >= 0; i--) {
      try {
        Files.deleteIfExists(all.get(i));
      } catch (IOException e) {
        // Left behind in the temporary directory; the lint result does not depend on it.
      }
    }
  }
}
