package io.hooklens.corpus;

import java.util.List;
import org.junit.jupiter.api.Tag;

/** The real public manifests and charts of {@code HOOKLENS_CORPUS}; their known bugs are in its INDEX.md. */
@Tag("slow")
class SharedCorpusLintTest extends CorpusLintChecks {
  @Override
  Corpus corpus() {
    return Corpus.shared();
  }

  @Override
  int minChartFiles() {
    return 1000;
  }

  @Override
  List<String> known() {
    return List.of(
        "kubernetes__ingress-nginx__deploy__static__provider__kind__deploy.yaml HL403",
        "projectcalico__calico__manifests__calico.yaml HL403",
        "projectcalico__calico__manifests__calico-etcd.yaml HL403",
        "projectcalico__calico__manifests__canal-etcd.yaml HL403",
        "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL118",
        "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL119",
        "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL102",
        "kubernetes__api__testdata__HEAD__core.v1.Pod.yaml HL103",
        "kubernetes__api__testdata__HEAD__apps.v1.Deployment.yaml HL102",
        "GoogleCloudPlatform__kubernetes-engine-samples__ai-ml__infw-gw__examples__getting-started__vllm-llama3-8b-instruct.yaml HL001",
        "openshift__openshift-ansible__roles__openshift_examples__files__examples__v1.0__quickstart-templates__cakephp-mysql.json HL311",
        "openshift__library__official__cakephp__templates__cakephp-mysql-example.json HL322",
        "sclorg__cakephp-ex__openshift__templates__cakephp-mysql.json HL322",
        "sclorg__cakephp-ex__openshift__templates__cakephp-mysql-persistent.json HL322",
        "sclorg__rails-ex__openshift__templates__rails-postgresql.json HL322",
        "sclorg__rails-ex__openshift__templates__rails-postgresql-persistent.json HL322",
        "openshift__openshift-ansible__roles__openshift_examples__files__examples__latest__quickstart-templates__amp.yaml HL314",
        "sclorg__dancer-ex__openshift__templates__dancer-mysql.json HL314",
        "sclorg__rails-ex__example__template__ruby-rails-example-with-postgresql.json HL314",
        "openshift__origin__test__testdata__complete-dc-hooks.yaml HL314",
        "openshift__origin__test__extended__testdata__deployments__failing-pre-hook.yaml HL316");
  }
}
