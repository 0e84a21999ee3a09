package io.hooklens.bench.lsp;

import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic multi-document manifest of about the requested number of lines, shaped like a
 * real application's: Deployments with preStop and postStart hooks, Helm hook Jobs with their
 * annotations, ConfigMaps, Services and two DeploymentConfigs. A few problems are planted that both
 * hooklens and a Kubernetes JSON schema see (a string where an integer belongs, a string where a
 * list belongs, an annotation that is a number), and the places the benchmark edits are recorded.
 */
final class ManifestGenerator {
  /**
   * A place the benchmark edits: on {@code line}, from {@code column} (UTF-16), the text is
   * {@code a} and becomes {@code b}, then {@code a} again, and so on. Both forms are read by both
   * servers, one of them as a problem, so each edit changes the diagnostics.
   */
  record EditSite(int line, int column, String a, String b) {}

  /** The generated text and its edit sites, from the top of the file to the bottom. */
  record Manifest(String text, int lines, List<EditSite> sites, int plantedProblems) {}

  private final StringBuilder out = new StringBuilder();
  private final List<EditSite> sites = new ArrayList<>();
  private int line;
  private int planted;

  private ManifestGenerator() {}

  /** About {@code targetLines} lines (a little more: the last group is completed). */
  static Manifest generate(int targetLines) {
    ManifestGenerator g = new ManifestGenerator();
    int groups = 0;
    // Each group is about 100 lines; edit sites near the top, the middle and the bottom.
    int expected = Math.max(3, targetLines / 100);
    while (g.line < targetLines) {
      boolean site = groups == 1 || groups == expected / 2 || groups == expected - 2;
      int i = groups++;
      g.group(i, site, i == 5 || i == 31);
    }
    return new Manifest(g.out.toString(), g.line, List.copyOf(g.sites), g.planted);
  }

  /**
   * One application's file, about 100 lines: the group {@code i} of {@link #generate}, with its planted
   * problems, and a DeploymentConfig in one file of 20.
   */
  static String file(int i) {
    ManifestGenerator g = new ManifestGenerator();
    g.group(i, false, i % 20 == 5);
    return g.out.toString();
  }

  private void group(int i, boolean editSite, boolean withDeploymentConfig) {
    String app = "app-" + i;
    deployment(app, i, editSite);
    hookJob(app, i, editSite);
    configMap(app, i);
    service(app, i);
    if (withDeploymentConfig) {
      deploymentConfig(app);
    }
  }

  private void deployment(String app, int i, boolean editSite) {
    emit("---");
    emit("apiVersion: apps/v1");
    emit("kind: Deployment");
    emit("metadata:");
    emit("  name: " + app);
    emit("  labels:");
    emit("    app.kubernetes.io/name: " + app);
    emit("    app.kubernetes.io/part-of: shop");
    emit("spec:");
    emit("  replicas: " + (1 + i % 3));
    emit("  selector:");
    emit("    matchLabels:");
    emit("      app.kubernetes.io/name: " + app);
    emit("  template:");
    emit("    metadata:");
    emit("      labels:");
    emit("        app.kubernetes.io/name: " + app);
    emit("    spec:");
    emit("      terminationGracePeriodSeconds: " + (30 + 10 * (i % 4)));
    emit("      containers:");
    emit("        - name: web");
    emit("          image: registry.example.com/shop/" + app + ":1." + i + ".0");
    emit("          ports:");
    emit("            - name: http");
    emit("              containerPort: 8080");
    emit("          env:");
    emit("            - name: APP_NAME");
    emit("              value: " + app);
    emit("          lifecycle:");
    emit("            preStop:");
    emit("              sleep:");
    if (editSite) {
      site("                seconds: ", "5", "x");
    } else if (i % 17 == 7) {
      plant("                seconds: x");
    } else {
      emit("                seconds: " + (5 + i % 10));
    }
    emit("            postStart:");
    emit("              exec:");
    if (i % 23 == 13) {
      plant("                command: \"/bin/warm-cache --quick\"");
    } else {
      emit("                command: [\"/bin/sh\", \"-c\", \"/bin/warm-cache --quick\"]");
    }
    emit("          readinessProbe:");
    emit("            httpGet:");
    emit("              path: /ready");
    emit("              port: http");
    emit("          resources:");
    emit("            requests:");
    emit("              cpu: 100m");
    emit("              memory: 128Mi");
    emit("        - name: log-shipper");
    emit("          image: registry.example.com/shop/shipper:2.4.1");
    emit("          lifecycle:");
    emit("            preStop:");
    emit("              exec:");
    emit("                command: [\"/bin/sh\", \"-c\", \"kill -TERM 1; sleep 3\"]");
  }

  private void hookJob(String app, int i, boolean editSite) {
    String[] events = {"pre-install,pre-upgrade", "post-install", "pre-delete", "post-upgrade"};
    emit("---");
    emit("apiVersion: batch/v1");
    emit("kind: Job");
    emit("metadata:");
    emit("  name: " + app + "-migrate");
    emit("  annotations:");
    emit("    helm.sh/hook: " + events[i % events.length]);
    if (editSite) {
      site("    helm.sh/hook-weight: ", "\"5\"", "5");
    } else if (i % 19 == 11) {
      plant("    helm.sh/hook-weight: " + (i % 7));
    } else {
      emit("    helm.sh/hook-weight: \"" + (i % 7 - 3) + "\"");
    }
    emit("    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded");
    emit("spec:");
    emit("  backoffLimit: 2");
    emit("  template:");
    emit("    spec:");
    emit("      restartPolicy: Never");
    emit("      containers:");
    emit("        - name: migrate");
    emit("          image: registry.example.com/shop/migrate:1." + i + ".0");
    emit("          args: [\"--target\", \"" + app + "\", \"--timeout\", \"120s\"]");
    emit("          env:");
    emit("            - name: DATABASE_URL");
    emit("              valueFrom:");
    emit("                secretKeyRef:");
    emit("                  name: shop-db");
    emit("                  key: url");
  }

  private void configMap(String app, int i) {
    emit("---");
    emit("apiVersion: v1");
    emit("kind: ConfigMap");
    emit("metadata:");
    emit("  name: " + app + "-config");
    emit("data:");
    emit("  LOG_LEVEL: info");
    emit("  FEATURE_FLAGS: \"checkout,search\"");
    emit("  application.properties: |");
    emit("    server.port=8080");
    emit("    shutdown.grace=" + (20 + i % 5) + "s");
    emit("    cache.size=512");
  }

  private void service(String app, int i) {
    emit("---");
    emit("apiVersion: v1");
    emit("kind: Service");
    emit("metadata:");
    emit("  name: " + app);
    emit("spec:");
    emit("  type: ClusterIP");
    emit("  selector:");
    emit("    app.kubernetes.io/name: " + app);
    emit("  ports:");
    emit("    - name: http");
    emit("      port: " + (80 + i % 2));
    emit("      targetPort: http");
  }

  private void deploymentConfig(String app) {
    emit("---");
    emit("apiVersion: apps.openshift.io/v1");
    emit("kind: DeploymentConfig");
    emit("metadata:");
    emit("  name: " + app + "-legacy");
    emit("spec:");
    emit("  replicas: 2");
    emit("  selector:");
    emit("    app: " + app + "-legacy");
    emit("  strategy:");
    emit("    type: Recreate");
    emit("    recreateParams:");
    emit("      timeoutSeconds: 600");
    emit("      pre:");
    emit("        failurePolicy: Abort");
    emit("        execNewPod:");
    emit("          containerName: app");
    emit("          command: [\"/bin/migrate\", \"--up\"]");
    emit("      post:");
    emit("        failurePolicy: Ignore");
    emit("        execNewPod:");
    emit("          containerName: app");
    emit("          command: [\"/bin/notify\", \"deployed\"]");
    emit("  template:");
    emit("    metadata:");
    emit("      labels:");
    emit("        app: " + app + "-legacy");
    emit("    spec:");
    emit("      containers:");
    emit("        - name: app");
    emit("          image: registry.example.com/shop/legacy:3.1");
    emit("          lifecycle:");
    emit("            preStop:");
    emit("              exec:");
    emit("                command: [\"/bin/sh\", \"-c\", \"sleep 10\"]");
  }

  private void emit(String text) {
    out.append(text).append('\n');
    line++;
  }

  /** A line that both servers report. */
  private void plant(String text) {
    planted++;
    emit(text);
  }

  private void site(String prefix, String a, String b) {
    sites.add(new EditSite(line, prefix.length(), a, b));
    emit(prefix + a);
  }
}
