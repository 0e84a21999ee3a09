package io.hooklens.corpus;

import java.util.List;

/** The repository's hand-written sample manifests and DeploymentConfigs. */
class SamplesLintTest extends CorpusLintChecks {
  @Override
  Corpus corpus() {
    return Corpus.samples();
  }

  @Override
  int minChartFiles() {
    return 20;
  }

  @Override
  List<String> known() {
    return List.of(
        "checkout-api-deployment.yaml HL401",
        "payments-gateway-deployment.yaml HL401",
        "storefront-web-deployment.yaml HL110",
        "storefront-web-deployment.yaml HL117",
        "node-log-agent-daemonset.yaml HL103",
        "identity-services-list.yaml HL102",
        "ledger-db-statefulset.yaml HL118",
        "payments-reconciler-debug-pod.json HL119",
        "billing-portal-deployment.yaml HL111",
        "report-export-job.yaml HL123",
        "recommendations-rollout.yaml HL125",
        "wiki-helm-template.yaml HL201",
        "wiki-helm-template.yaml HL207",
        "wiki-helm-template.yaml HL208",
        "wiki-helm-template.yaml HL204",
        "wiki-helm-template.yaml HL216",
        "inventory-api-deploymentconfig.yaml HL314",
        "inventory-api-deploymentconfig.yaml HL315",
        "inventory-api-deploymentconfig.yaml HL318",
        "catalog-deploymentconfig.yaml HL302",
        "legacy-frontend-deploymentconfig.yaml HL320",
        "helpdesk-django-postgresql-template.json HL311");
  }
}
