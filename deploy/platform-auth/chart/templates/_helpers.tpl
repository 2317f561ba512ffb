{{/*
Shared by the three care-platform charts (deploy/<service>/chart/templates): scripts/check-deploy.sh fails when the
copies differ. Service-specific facts live in values.yaml only.
*/}}

{{/* Chart name, truncated to the DNS label limit. */}}
{{- define "svc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name. */}}
{{- define "svc.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Common labels. */}}
{{- define "svc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "svc.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: care-platform
{{- end }}

{{/* Selector labels. */}}
{{- define "svc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "svc.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Service account name. */}}
{{- define "svc.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "svc.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Name of the Secret holding secret env. */}}
{{- define "svc.secretName" -}}
{{- if .Values.secrets.existingSecret }}
{{- .Values.secrets.existingSecret }}
{{- else }}
{{- include "svc.fullname" . }}
{{- end }}
{{- end }}

{{/* "true" when the service runs the embedded database (PGlite in the volume): one replica, one writer (ADR 0011). */}}
{{- define "svc.embedded" -}}
{{- if eq .Values.database.mode "embedded" }}true{{ end }}
{{- end }}

{{/* Highest replica count the Deployment can reach (the HPA's maximum when autoscaling). */}}
{{- define "svc.maxReplicas" -}}
{{- if .Values.autoscaling.enabled }}{{ .Values.autoscaling.maxReplicas }}{{ else }}{{ .Values.replicaCount }}{{ end }}
{{- end }}

{{/* Lowest replica count (what a PodDisruptionBudget must leave room under). */}}
{{- define "svc.minReplicas" -}}
{{- if .Values.autoscaling.enabled }}{{ .Values.autoscaling.minReplicas }}{{ else }}{{ .Values.replicaCount }}{{ end }}
{{- end }}

{{/* Seconds Kubernetes waits after SIGTERM: preStop sleep + drain window + time to finish in-flight work. */}}
{{- define "svc.terminationGrace" -}}
{{- $drainS := div (add .Values.shutdown.drainMs 999) 1000 }}
{{- add .Values.shutdown.preStopSeconds $drainS .Values.shutdown.finishSeconds }}
{{- end }}
