{{- define "notifications.fullname" -}}
{{- printf "%s-notifications" .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "notifications.selectorLabels" -}}
app.kubernetes.io/name: notifications
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "notifications.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}
