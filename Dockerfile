# syntax=docker/dockerfile:1
# platctl: CLI, emulator and GitOps controller in one small, non-root image.
#   docker build -t platctl .
#   docker run --rm platctl --help
#   docker run --rm -p 8080:8080 -e PLATCTL_BASE_URL=... -e PLATCTL_API_KEY=... \
#     platctl controller --repo https://git.example/acme/platform.git --path platform/
ARG NODE_IMAGE=node:22-bookworm-slim

# --- build: compile TypeScript, and produce production node_modules (better-sqlite3 is native) --
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
# the build generates the manifest validators from the schemas
COPY schemas ./schemas
RUN npm run build && chmod 0755 dist/src/cli/bin.js
# A separate production install, compiled here where the build tools are, copied as is below.
WORKDIR /prod
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: node, git and ssh only; no compiler, no npm cache, no sources -----------------------
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends git openssh-client ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/platctl \
 && chown node:node /var/lib/platctl
ENV NODE_ENV=production \
    HOME=/tmp \
    GIT_TERMINAL_PROMPT=0
WORKDIR /app
COPY --from=build /prod/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json ./
COPY schemas ./schemas
COPY api ./api
COPY examples ./examples
RUN ln -s /app/dist/src/cli/bin.js /usr/local/bin/platctl
# The image's unprivileged `node` user (uid/gid 1000); nothing under /app is writable by it.
USER 1000:1000
WORKDIR /var/lib/platctl
EXPOSE 8080
VOLUME ["/var/lib/platctl"]
ENTRYPOINT ["platctl"]
CMD ["--help"]
