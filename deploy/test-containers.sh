#!/usr/bin/env bash
# The container test (`npm run test:containers`; not part of `npm test`: it builds an image and takes
# minutes). Builds the image from ./Dockerfile, brings up compose.yaml as shipped (Redis, three
# replicas, HAProxy) with Docker Compose or podman-compose, and drives it with the official MCP SDK
# client: SIGKILL one replica, SIGTERM-drain another, stop and start the third (HAProxy must take it
# back at its new address), stop Redis mid-load (docs/scale.md, "Container test").
#
# Without an image registry: TOOLBOX_LOCAL_BASE=1 builds local base images first (deploy/base-images.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$here/containers/engine.sh"
if [ "${TOOLBOX_LOCAL_BASE:-}" = 1 ]; then
  bash "$here/base-images.sh"
  export TOOLBOX_REDIS_IMAGE=localhost/toolbox-base/redis:7 TOOLBOX_HAPROXY_IMAGE=localhost/toolbox-base/haproxy:2.6
  base=(--build-arg NODE_IMAGE=localhost/toolbox-base/node:20)
else
  base=()
fi
ca=()
[ -n "${NODE_EXTRA_CA_CERTS:-}" ] && ca=(--secret "id=ca_bundle,src=$NODE_EXTRA_CA_CERTS")
# One build (compose's toolbox-1 would build the same; this passes the base and the CA secret).
"$ENGINE" build "${base[@]}" "${ca[@]}" -t localhost/toolbox-serve:latest "$repo"
"$ENGINE" image inspect localhost/toolbox-serve:latest --format '{{.Size}}' | awk '{printf "image size: %.0f MB\n", $1/1e6}'

work=$(mktemp -d /tmp/toolbox-ctr-test-XXXXXX)
export TOOLBOX_PROJECT="$work/project" TOOLBOX_SECRETS="$work/secrets"
mkdir -p "$TOOLBOX_PROJECT/.toolbox" && mkdir -m 0700 "$TOOLBOX_SECRETS"
cp -r "$repo/tool_registry" "$repo/my_tools" "$repo/toolbox.config.yaml" "$TOOLBOX_PROJECT/"
openssl rand -hex 32 >"$TOOLBOX_SECRETS/redis_password" && chmod 0444 "$TOOLBOX_SECRETS/redis_password"
TOOLBOX_TOKEN=$(openssl rand -hex 32)
export TOOLBOX_TOKEN ENGINE
down() { (cd "$repo" && "${COMPOSE[@]}" down -v >/dev/null 2>&1 || true); rm -rf "$work"; }
trap down EXIT
(cd "$repo" && "${COMPOSE[@]}" up -d)
node "$here/containers/drive.mjs"
