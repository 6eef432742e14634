# Sourced by deploy/base-images.sh and deploy/test-containers.sh: which engine, and how it is set up.
#
# Docker when its daemon answers; else Podman (rootful), set up as these machines need it
# (docs/scale.md, "Container test"): runc instead of crun (crun's setrlimit fails on hybrid
# cgroups), explicit ulimits, overlay storage in TOOLBOX_CTR_ROOT. An engine you configured yourself
# (CONTAINERS_CONF / CONTAINERS_STORAGE_CONF already set) is left alone.
TOOLBOX_CTR_ROOT=${TOOLBOX_CTR_ROOT:-/var/tmp/toolbox-containers}

if [ -z "${ENGINE:-}" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    ENGINE=docker
  elif command -v podman >/dev/null 2>&1; then
    ENGINE=podman
  else
    echo "no container engine: install Docker, or Podman (docs/scale.md)" >&2
    exit 2
  fi
fi

if [ "$ENGINE" = podman ]; then
  mkdir -p "$TOOLBOX_CTR_ROOT"
  if [ -z "${CONTAINERS_CONF:-}" ]; then
    export CONTAINERS_CONF="$TOOLBOX_CTR_ROOT/containers.conf"
    cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
  fi
  if [ -z "${CONTAINERS_STORAGE_CONF:-}" ]; then
    export CONTAINERS_STORAGE_CONF="$TOOLBOX_CTR_ROOT/storage.conf"
    cat >"$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "overlay"
graphroot = "$TOOLBOX_CTR_ROOT/storage"
runroot = "$TOOLBOX_CTR_ROOT/run"
CONF
  fi
  COMPOSE=(podman-compose)
else
  COMPOSE=(docker compose)
fi
