# syntax=docker/dockerfile:1
# AIDE Metastore images, both assembled by scripts/assemble-image.sh, the same script that
# scripts/check-image.mjs runs outside Docker (ADR 0055): what this file builds is what CI starts.
#
#   docker build -t aide-metastore-backend .                       the API and the web UI at /ui
#   docker build --target crawler -t aide-metastore-crawler .      aide-crawler, for scheduled jobs
#
# The backend needs DATABASE_URL and AIDE_JWT_SECRET (see docker-compose.yml); migrations and seeds run
# with `node dist/cli.js migrate` / `node dist/cli.js seed`, or on start with AIDE_MIGRATE_ON_START=true.
# docs/operations.md ("Images") lists what is in them and the size budget.

FROM node:20-bookworm-slim AS toolchain
ENV CI=true
RUN npm install -g --no-fund --no-audit pnpm@12.4.2
WORKDIR /src
# Manifests first, so that the dependency layer is rebuilt only when they change. .pnpmfile.cjs trims
# typeorm's optional driver peers; the lockfile's checksum of it must match.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs tsconfig.base.json ./
COPY packages/schemas/package.json packages/schemas/
COPY packages/sdk/package.json packages/sdk/
COPY packages/backend/package.json packages/backend/
COPY packages/web/package.json packages/web/
COPY packages/crawler/package.json packages/crawler/
COPY packages/provider/package.json packages/provider/
COPY scripts/assemble-image.sh scripts/

FROM toolchain AS build-backend
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    scripts/assemble-image.sh install backend
# The sources (.dockerignore keeps tests, benchmarks and build outputs out).
COPY packages packages
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    scripts/assemble-image.sh build backend /out

FROM toolchain AS build-crawler
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    scripts/assemble-image.sh install crawler
COPY packages packages
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    scripts/assemble-image.sh build crawler /out

# The crawler as a job: `docker run --rm -e AIDE_CRAWLER_CONNECTION_URL=… aide-metastore-crawler crawl
# --system-code shop_pg --check --format json`; exit codes in docs/crawler.md (deploy/ has a CronJob).
FROM node:20-bookworm-slim AS crawler
ENV NODE_ENV=production
WORKDIR /app/crawler
# Owned by root and read-only to the `node` user the crawler runs as.
COPY --from=build-crawler /out/ /app/
USER node
ENTRYPOINT ["node", "/app/crawler/dist/bin.js"]
CMD ["--help"]

# The backend, last: the image `docker build .` and docker-compose.yml build.
FROM node:20-bookworm-slim AS backend
ENV NODE_ENV=production \
    PORT=8001 \
    HOST=0.0.0.0 \
    AIDE_LOG_FORMAT=json
# /app/backend: package.json, dist/, seeds/ (the reference data `node dist/cli.js seed` loads) and
# node_modules/; /app/web/dist: the UI, served at /ui. Owned by root and read-only to the `node` user
# the server runs as.
WORKDIR /app/backend
COPY --from=build-backend /out/ /app/
USER node
EXPOSE 8001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8001) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
