{{- define "refused-tpl.name" -}}
{{ .Release.Name }}-puller
{{- end }}
