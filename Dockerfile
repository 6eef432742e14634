# toolbox serve as a container: one replica of the deployment in compose.yaml (docs/scale.md).
#
#   docker build -t toolbox-serve .                                  (in a clone of this repository)
#   docker build --secret id=ca_bundle,src=/etc/ssl/certs/ca-certificates.crt -t toolbox-serve .
#                                  (behind a TLS-intercepting proxy: its CA for npm, never kept in a layer)
#   docker build --target otel -t toolbox-serve:otel .               (with the OpenTelemetry SDK)
#   podman build --build-arg NODE_IMAGE=localhost/toolbox-base/node:20 …   (a local base: deploy/base-images.sh)
#
# The registry is baked in: this repository's example project (tool_registry/, my_tools/,
# toolbox.config.yaml) is copied to /srv/project. To serve your own, mount your project folder over
# /srv/project at run time (compose.yaml does, with TOOLBOX_PROJECT), or replace the three COPY
# lines below with your project's files.

# The base, pinned by digest (a tag moves; a digest is the exact image). No registry was reachable
# where this file was written, so the digest is the one published for node:20-bookworm-slim and was
# not re-checked there: refresh it deliberately (`docker buildx imagetools inspect node:20-bookworm-slim`).
ARG NODE_IMAGE=node:20-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0

# 1. Dependencies, from the manifests alone: a change to the source does not re-run the install.
FROM ${NODE_IMAGE} AS deps
WORKDIR /toolbox
COPY package.json package-lock.json ./
# No install scripts: `prepare` builds dist/, which needs the source (stage 2 builds it, once).
RUN --mount=type=secret,id=ca_bundle \
    if [ -s /run/secrets/ca_bundle ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca_bundle; fi \
 && npm ci --no-audit --no-fund --ignore-scripts

# 2. One build of dist/, packed exactly as npm would publish it, then installed as a user would
#    (`npm install -g`, production dependencies only, from the cache stage 1 filled).
FROM deps AS build
COPY . .
RUN --mount=type=secret,id=ca_bundle \
    if [ -s /run/secrets/ca_bundle ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca_bundle; fi \
 && npm run build \
 && node scripts/pack-manifest.mjs strip \
 && npm pack --ignore-scripts --silent \
 && node scripts/pack-manifest.mjs restore \
 && npm install -g --prefix /opt/toolbox --prefer-offline --no-audit --no-fund agent-toolbox-*.tgz \
 && cd /opt/toolbox/lib/node_modules/agent-toolbox \
 && rm -rf docs examples node_modules/gpt-tokenizer/src \
 && find . \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' \) -type f -delete

# 3. The replica: Node 20, Python 3 with venv (`toolbox deps --install`), bubblewrap for the
#    sandbox, a non-root user. No compiler, no npm cache, no source.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb \
 && useradd --create-home --uid 10001 --shell /usr/sbin/nologin toolbox
COPY --from=build /opt/toolbox /opt/toolbox
ENV PATH=/opt/toolbox/bin:$PATH TOOLBOX_DAEMON=off
# The project: its registry, its tools' code and its config (read-only to the server user); its
# .toolbox/ state folder is the user's own (caches, results, the local fallback state).
WORKDIR /srv/project
COPY tool_registry/ /srv/project/tool_registry/
COPY my_tools/ /srv/project/my_tools/
COPY toolbox.config.yaml /srv/project/
RUN install -d -o toolbox -g toolbox -m 0700 /srv/project/.toolbox
USER 10001
EXPOSE 8765
# Alive (not ready: readiness is the balancer's business, on /readyz). Docker runs it; Podman only
# with the docker image format and systemd timers (compose.yaml has its own healthchecks).
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8765/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["toolbox"]
# A token of your own (TOOLBOX_TOKEN) is required on a non-loopback address; the shared state comes
# from TOOLBOX_STATE_URL (its password from TOOLBOX_STATE_PASSWORD); HAProxy's X-Forwarded-For names
# the client; serve refuses to start here if the sandbox tier would be `none` (docs/scale.md).
CMD ["serve", "--http", "8765", "--host", "0.0.0.0", "--token-env", "TOOLBOX_TOKEN", "--trust-proxy", "--drain", "30s", "--log-format", "json", "--registry", "/srv/project/tool_registry"]

# Optional: the OpenTelemetry SDK beside toolbox (docs/tracing.md), for OTEL_EXPORTER_OTLP_ENDPOINT.
FROM build AS otel-sdk
RUN --mount=type=secret,id=ca_bundle \
    if [ -s /run/secrets/ca_bundle ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca_bundle; fi \
 && mkdir /otel && cd /otel \
 && npm install --prefix /otel --no-audit --no-fund --no-save @opentelemetry/sdk-trace-node@2.12 \
      @opentelemetry/sdk-metrics@2.12 @opentelemetry/resources@2.12 \
      @opentelemetry/exporter-trace-otlp-http@0.223 @opentelemetry/exporter-metrics-otlp-http@0.223
FROM runtime AS otel
COPY --from=otel-sdk /otel/node_modules /opt/toolbox/lib/node_modules/

# The default target (a plain `docker build .`) is the replica without the SDK.
FROM runtime
