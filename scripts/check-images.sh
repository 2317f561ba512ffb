#!/usr/bin/env bash
# Builds the three service images daemonless and runs each one the way the charts do (read-only root filesystem,
# non-root, a writable /data and /tmp only), then checks its health endpoint and one real call, and stops it.
# ADR 0010 explains the stand-in base image: the registry's node image cannot be pulled here, so a Debian bookworm
# built with debootstrap plus the pinned Node.js binary from the npm registry is committed under the Dockerfiles'
# base-image name. Only that stand-in carries this machine's CA bundle (the sandbox intercepts TLS).
#
# Needs root, buildah, podman, runc and debootstrap (.ci/run installs them with apt). Environment:
#   IMAGES_KEEP=1       keep the built images and the containers' logs (default: remove the containers)
#   IMAGES_ONLY="memory care-consult"   a subset of services
#   IMAGES_REUSE=1      run the images built by an earlier run (same commit) instead of building them again
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/node-runtime.sh

STORAGE=(--storage-driver vfs)
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/care-platform"
SERVICES=(${IMAGES_ONLY:-memory care-consult platform-auth})
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown)
log() { printf '\n--> %s\n' "$*"; }
die() { printf 'check-images: %s\n' "$*" >&2; exit 1; }

for tool in buildah podman runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (apt-get install buildah podman runc debootstrap)"
done
[ "$(id -u)" -eq 0 ] || die "run as root: buildah's chroot isolation and debootstrap need it"

# Every Dockerfile must name the same base, and the stand-in is committed under that name.
BASE=$(grep -h -m1 '^FROM ' deploy/*/Dockerfile | awk '{print $2}' | sort -u)
[ "$(wc -l <<<"$BASE")" -eq 1 ] || die "the Dockerfiles name different base images: $BASE"
case "$BASE" in
  node:"$NODE_RUNTIME_VERSION"-bookworm-slim) ;;
  *) die "base image $BASE does not match the pinned Node.js $NODE_RUNTIME_VERSION (scripts/lib/node-runtime.sh)" ;;
esac
BASE_REF="docker.io/library/$BASE"

# 1. Debian bookworm minbase, cached as a tarball between runs on one machine (debootstrap takes minutes).
ROOTFS_TAR="$CACHE/bookworm-minbase.tar"
if [ ! -s "$ROOTFS_TAR" ]; then
  log "debootstrap bookworm (minbase) from $MIRROR, cached in $ROOTFS_TAR"
  mkdir -p "$CACHE"
  tmp=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$tmp/rootfs" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log"; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
  rm -rf "$tmp/rootfs/var/cache/apt/archives"/*.deb "$tmp/rootfs/var/lib/apt/lists"/*
  tar -C "$tmp/rootfs" -cf "$ROOTFS_TAR.part" . && mv "$ROOTFS_TAR.part" "$ROOTFS_TAR"
  rm -rf "$tmp"
fi

# 2. The stand-in base image: rootfs + node + npm + user node (uid 1000, as in the official image) + CA bundle.
STAMP="$NODE_RUNTIME_VERSION/$NPM_RUNTIME_VERSION/$(stat -c %Y "$ROOTFS_TAR")"
if [ "$(buildah "${STORAGE[@]}" inspect --type image --format '{{index .ImageAnnotations "care.standin"}}' "$BASE_REF" 2>/dev/null || true)" != "$STAMP" ]; then
  log "building the stand-in base image $BASE_REF"
  runtime=$(node_runtime_dir)
  ctr=$(buildah "${STORAGE[@]}" from scratch)
  mnt=$(buildah "${STORAGE[@]}" mount "$ctr")
  tar -C "$mnt" -xf "$ROOTFS_TAR"
  mkdir -p "$mnt/usr/local/bin" "$mnt/usr/local/lib/node_modules"
  cp "$runtime/bin/node" "$mnt/usr/local/bin/node"
  cp -r "$runtime/lib/node_modules/npm" "$mnt/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
  chroot "$mnt" groupadd --gid 1000 node
  chroot "$mnt" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  mkdir -p "$mnt/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$mnt/etc/ssl/certs/ca-certificates.crt"
  buildah "${STORAGE[@]}" umount "$ctr" >/dev/null
  buildah "${STORAGE[@]}" config --env NODE_VERSION="$NODE_RUNTIME_VERSION" \
    --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --annotation care.standin="$STAMP" --cmd node "$ctr"
  buildah "${STORAGE[@]}" commit --quiet --rm "$ctr" "$BASE_REF" >/dev/null
fi

# 3. The three images, tagged :<version> and :<sha> as the workflows push them.
declare -A PORT=([memory]=7070 [care-consult]=8000 [platform-auth]=8080)
declare -A HEALTH=([memory]=/api/v1/system/health [care-consult]=/api/health [platform-auth]=/actuator/health/liveness)
for svc in "${SERVICES[@]}"; do
  version=$(node -p "require('./services/$svc/package.json').version")
  if [ "${IMAGES_REUSE:-0}" = 1 ] && buildah "${STORAGE[@]}" inspect --type image "localhost/care/$svc:$COMMIT" >/dev/null 2>&1; then
    log "reusing care/$svc:$COMMIT"
    continue
  fi
  log "building care/$svc:$version ($COMMIT)"
  start=$(date +%s)
  buildah "${STORAGE[@]}" bud --isolation chroot --format docker --pull-never --layers=false --quiet \
    --build-arg "VERSION=$version" --build-arg "GIT_COMMIT=$COMMIT" \
    -f "deploy/$svc/Dockerfile" -t "localhost/care/$svc:$version" -t "localhost/care/$svc:$COMMIT" . >/dev/null
  echo "built in $(($(date +%s) - start)) s"
  # Production files only: the image holds dist/ and runtime assets, never sources or tests.
  ctr=$(buildah "${STORAGE[@]}" from --pull-never "localhost/care/$svc:$version")
  mnt=$(buildah "${STORAGE[@]}" mount "$ctr")
  for dir in src test; do
    [ ! -e "$mnt/app/$dir" ] || die "$svc image carries /app/$dir (production files only)"
  done
  buildah "${STORAGE[@]}" rm "$ctr" >/dev/null
done

# 4. Run each image as the charts do and call it.
SECRET=$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n')
declare -A ENVS=(
  [memory]="-e API_KEY=$SECRET"
  [care-consult]="-e JWT_SECRET=$SECRET -e RELAY_SIGNING_KEY=$SECRET-relay -e MEMORY_BASE_URL=http://127.0.0.1:1"
  [platform-auth]="-e JWT_SECRET=$SECRET -e CORS_ALLOWED_ORIGINS=https://app.example -e BOOTSTRAP_ADMIN_EMAIL=admin@example.org -e BOOTSTRAP_ADMIN_PASSWORD=$SECRET"
)
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
fail=0
containers=()
cleanup() { for c in "${containers[@]}"; do podman "${STORAGE[@]}" rm -f -t 5 "$c" >/dev/null 2>&1 || true; done; }
trap cleanup EXIT
for svc in "${SERVICES[@]}"; do
  version=$(node -p "require('./services/$svc/package.json').version")
  port=$(free_port)
  name="care-check-$svc-$$"
  log "running care/$svc:$version read-only as uid 1000 on 127.0.0.1:$port"
  # shellcheck disable=SC2086 # ENVS entries are word lists on purpose
  # /data is owned by the container's user (U), as a chart's fsGroup does for its volume; podman 4.3 ignores a
  # tmpfs mode= here. Explicit limits: this sandbox has no CAP_SYS_RESOURCE, and podman's defaults (or --ulimit host, through conmon)
  # ask runc to raise RLIMIT_NOFILE/NPROC, which fails with "error setting rlimit type 7: operation not permitted".
  podman "${STORAGE[@]}" run -d --name "$name" --runtime runc --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --network host \
    --read-only --user 1000:1000 --cap-drop ALL --security-opt no-new-privileges \
    --tmpfs /tmp:rw,size=64m --tmpfs /data:rw,size=512m,U \
    -e PORT="$port" -e LOG_LEVEL=warn ${ENVS[$svc]} "localhost/care/$svc:$version" >/dev/null
  containers+=("$name")
  start=$(date +%s)
  up=0
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$port${HEALTH[$svc]}" >/dev/null 2>&1; then up=1; break; fi
    if [ "$(podman "${STORAGE[@]}" inspect -f '{{.State.Running}}' "$name")" != true ]; then break; fi
    sleep 0.5
  done
  if [ "$up" -ne 1 ]; then
    echo "$svc: not healthy"; podman "${STORAGE[@]}" logs --tail 40 "$name" || true; fail=1; continue
  fi
  echo "healthy after $(($(date +%s) - start)) s"
  base="http://127.0.0.1:$port"
  case "$svc" in
    memory)
      body=$(curl -fsS -X POST "$base/api/v1/memory/remember" -H "X-API-Key: $SECRET" -H 'X-Tenant-Id: image-check' \
        -H 'content-type: application/json' \
        -d '{"text":"The patient prefers morning appointments","type":"SEMANTIC","source":"USER_STATED"}') || body=""
      grep -q '"id"' <<<"$body" || { echo "memory: remember failed: $body"; fail=1; }
      body=$(curl -fsS -X POST "$base/api/v1/memory/recall" -H "X-API-Key: $SECRET" -H 'X-Tenant-Id: image-check' \
        -H 'content-type: application/json' -d '{"query":"when does the patient like appointments?"}') || body=""
      grep -q 'morning appointments' <<<"$body" || { echo "memory: recall did not find it: $body"; fail=1; } ;;
    care-consult)
      # A builtin HS256 token as platform-auth issues it, signed with the JWT_SECRET the container was given.
      token=$(JWT_SECRET="$SECRET" node -e '
        const c=require("crypto"),b=(o)=>Buffer.from(JSON.stringify(o)).toString("base64url"),n=Math.floor(Date.now()/1e3);
        const h=b({alg:"HS256",typ:"JWT"}),p=b({sub:"u-image",email:"u@example.org",tenantId:"image-check",roles:["USER"],iat:n,exp:n+300,iss:"care-platform",aud:"care-platform"});
        console.log(h+"."+p+"."+c.createHmac("sha256",process.env.JWT_SECRET).update(h+"."+p).digest("base64url"))')
      body=$(curl -fsS "$base/api/agents?limit=3" -H "Authorization: Bearer $token") || body=""
      grep -q '"id"' <<<"$body" || { echo "care-consult: agent catalog failed: $body"; fail=1; }
      # The emergency screen (rules + the trained semantic stage shipped in the image) refuses before any model.
      body=$(curl -fsS -N -X POST "$base/api/chat" -H "Authorization: Bearer $token" -H 'content-type: application/json' \
        -d '{"messages":[{"role":"user","content":"my dad suddenly cannot lift his right arm and his speech is slurred"}]}') || body=""
      grep -q 'event: refusal' <<<"$body" || { echo "care-consult: the emergency screen did not refuse: ${body:0:300}"; fail=1; } ;;
  esac
  info=$(curl -fsS "$base${HEALTH[$svc]}" 2>/dev/null || true)
  echo "$svc: health $info" | cut -c1-200
  [ "$fail" -eq 0 ] && echo "$svc: real call OK"
  podman "${STORAGE[@]}" stop -t 10 "$name" >/dev/null
done
[ "${IMAGES_KEEP:-0}" = 1 ] || buildah "${STORAGE[@]}" rmi --prune >/dev/null 2>&1 || true
if [ "$fail" -ne 0 ]; then echo "image checks failed"; exit 1; fi
echo "image checks passed"
