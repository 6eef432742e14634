# toolbox serve as a container: one replica of the deployment in compose.yaml (docs/scale.md).
#
#   docker build -t toolbox-serve .      (in a clone of this repository)
#
# The registry is baked in: this repository's example project (tool_registry/, my_tools/,
# toolbox.config.yaml) is copied to /srv/project. To serve your own, mount your project folder over
# /srv/project at run time (compose.yaml does, with TOOLBOX_PROJECT), or replace the three COPY
# lines below with your project's files.

# 1. toolbox itself, packed exactly as npm would install it.
FROM node:20-bookworm-slim AS pack
WORKDIR /toolbox
COPY . .
RUN npm ci --no-audit --no-fund && npm pack && mv agent-toolbox-*.tgz /toolbox.tgz

# 2. The replica: Node 20, Python 3 for Python tools, bubblewrap for the sandbox, a non-root user.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap python3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=pack /toolbox.tgz /tmp/toolbox.tgz
RUN npm install -g --no-audit --no-fund /tmp/toolbox.tgz && rm /tmp/toolbox.tgz
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin toolbox
# The project: its registry, its tools' code and its config (read-only to the server user); its
# .toolbox/ state folder is the user's own (caches, results, the local fallback state).
WORKDIR /srv/project
COPY tool_registry/ /srv/project/tool_registry/
COPY my_tools/ /srv/project/my_tools/
COPY toolbox.config.yaml /srv/project/
RUN install -d -o toolbox -g toolbox -m 0700 /srv/project/.toolbox
USER toolbox
ENV TOOLBOX_DAEMON=off
EXPOSE 8765
# Alive (not ready: readiness is the balancer's business, on /readyz).
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8765/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["toolbox"]
# A token of your own (TOOLBOX_TOKEN) is required on a non-loopback address; the shared state comes
# from TOOLBOX_STATE_URL; HAProxy's X-Forwarded-For names the client.
CMD ["serve", "--http", "8765", "--host", "0.0.0.0", "--token-env", "TOOLBOX_TOKEN", "--trust-proxy", "--registry", "/srv/project/tool_registry"]
