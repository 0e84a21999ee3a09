{{/*
Standard labels. Usage: {{ include "platform-lib.labels" . }}
*/}}
{{- define "platform-lib.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | default .Chart.Version | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end }}

{{/*
Graceful shutdown for HTTP services: keep serving while the endpoints
controller and the ingress catch up, then let the app stop.

  {{- include "platform-lib.gracefulShutdown" (dict "drainSeconds" 10) | nindent 10 }}
*/}}
{{- define "platform-lib.gracefulShutdown" -}}
lifecycle:
  preStop:
    sleep:
      seconds: {{ .drainSeconds | default 10 }}
{{- end }}

{{/*
Grace period that leaves the app time to stop after the drain.
*/}}
{{- define "platform-lib.terminationGracePeriod" -}}
terminationGracePeriodSeconds: {{ add (.drainSeconds | default 10) (.shutdownSeconds | default 20) }}
{{- end }}

{{/*
Annotations for a database migration Job run before install and upgrade.
*/}}
{{- define "platform-lib.migrationHookAnnotations" -}}
helm.sh/hook: pre-install,pre-upgrade
helm.sh/hook-weight: "-5"
helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
{{- end }}
