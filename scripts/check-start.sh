#!/usr/bin/env bash
# Runs the README's first command (the first ```sh block of README.md, verbatim) in the background on this clone,
# waits for the three health endpoints, then stops it. .ci/run calls it on the clean clone before the tests, so
# the set-up the README promises is the one CI proves (ADR 0004 update).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=$(awk '/^```sh$/ { inside = 1; next } /^```$/ { if (inside) exit } inside' README.md)
[ -n "$cmd" ] || { echo "no \`\`\`sh block in README.md"; exit 1; }
echo "README's first command: $cmd"
log=$(mktemp)
setsid bash -c "$cmd" >"$log" 2>&1 &
pid=$!
stop() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL -- "-$pid" 2>/dev/null || true
}
trap stop EXIT
declare -A health=([memory]=7070/api/v1/system/health [care-consult]=8000/api/health [platform-auth]=8080/actuator/health/liveness)
deadline=$(($(date +%s) + ${START_TIMEOUT_S:-600}))
for svc in memory care-consult platform-auth; do
  url="http://127.0.0.1:${health[$svc]}"
  until curl -fsS "$url" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      echo "$svc did not answer at $url"; tail -40 "$log"; exit 1
    fi
    sleep 1
  done
  echo "$svc: $(curl -fsS "$url" | cut -c1-160)"
done
grep -q 'The care platform is running' "$log" || sleep 2
grep -q 'The care platform is running' "$log" || { echo "pnpm start did not print its summary"; tail -20 "$log"; exit 1; }
echo "README's first command works: three services healthy"
rm -f "$log"
