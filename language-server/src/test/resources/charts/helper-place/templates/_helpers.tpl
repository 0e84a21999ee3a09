{{/* Lifecycle blocks the templates include: each sleep is written here, literally, but one. */}}
{{- define "relay.lifecycle" -}}
lifecycle:
  preStop:
    sleep:
      seconds: 90
{{- end }}

{{- define "relay.preStop" -}}
preStop:
  exec:
    command: ["/bin/sh", "-c", "sleep 6"]
{{- end }}

{{- define "relay.sidecarLifecycle" -}}
lifecycle:
  {{- include "relay.preStop" . | nindent 2 }}
{{- end }}

{{- define "relay.drain" -}}
lifecycle:
  preStop:
    exec:
      command: ["/bin/sh", "-c", "sleep 8"]
{{- end }}

{{- define "relay.workerLifecycle" }}
          lifecycle:
            preStop:
              exec:
                command: ["/bin/sh", "-c", "sleep 9"]
{{- end }}

{{- define "relay.computed" -}}
lifecycle:
  preStop:
    exec:
      command: ["/bin/sh", "-c", "sleep {{ .Values.drainSeconds }}"]
{{- end }}

{{- define "relay.twinA" -}}
lifecycle:
  preStop:
    exec:
      command: ["/bin/sh", "-c", "sleep 2"]
{{- end }}

{{- define "relay.twinB" -}}
lifecycle:
  preStop:
    exec:
      command: ["/bin/sh", "-c", "sleep 2"]
{{- end }}
