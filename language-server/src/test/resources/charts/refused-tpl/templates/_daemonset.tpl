{{- define "refused-tpl.daemonset" -}}
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: {{ include "refused-tpl.name" . }}
spec:
  selector:
    matchLabels:
      app: puller
  template:
    metadata:
      labels:
        app: puller
    spec:
      containers:
        - name: puller
          image: busybox:1.36
          lifecycle:
            preStop: {}
{{- end }}
