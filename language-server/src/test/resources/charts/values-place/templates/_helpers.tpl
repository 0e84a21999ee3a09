{{- define "gateway.podSpec" -}}
containers:
  - name: gateway
    image: registry.example.com/gateway:1.0
    {{- with .Values.lifecycle }}
    lifecycle: {{ toYaml . | nindent 6 }}
    {{- end }}
  - name: sidecar
    image: registry.example.com/sidecar:1.0
    lifecycle:
      {{- toYaml .Values.sidecarLifecycle | nindent 6 }}
  - name: helper-written
    image: registry.example.com/helper:1.0
    lifecycle:
      preStop:
        exec:
          command: ["/bin/sh", "-c", "sleep 3"]
{{- end }}
