# syntax=docker/dockerfile:1
# The AIDE Metastore backend image: `docker build -t aide-metastore-backend .`
# It needs DATABASE_URL and AIDE_JWT_SECRET (see docker-compose.yml); migrations and seeds run with
# `node dist/cli.js migrate` / `node dist/cli.js seed`, or on start with AIDE_MIGRATE_ON_START=true.

FROM node:20-bookworm-slim AS build
ENV CI=true
RUN npm install -g --no-fund --no-audit pnpm@12.4.2
WORKDIR /src
# Manifests first, so the dependency layer is rebuilt only when they change.
# .pnpmfile.cjs trims typeorm's optional driver peers; the lockfile's checksum of it must match.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs tsconfig.base.json ./
COPY packages/schemas/package.json packages/schemas/
COPY packages/backend/package.json packages/backend/
COPY packages/sdk/package.json packages/sdk/
COPY packages/crawler/package.json packages/crawler/
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm install --frozen-lockfile --filter '@aide/backend...'
COPY packages/schemas packages/schemas
COPY packages/backend packages/backend
RUN pnpm --filter '@aide/backend...' build
# A self-contained copy of the backend with production dependencies only (@aide/schemas included):
# no embedded PostgreSQL (the image always runs on DATABASE_URL; without it the server says so) and no
# pino-pretty (JSON logs), both development dependencies.
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm --filter @aide/backend deploy --prod /out

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=8001 \
    HOST=0.0.0.0 \
    AIDE_LOG_FORMAT=json
WORKDIR /app
# Owned by root and read-only to the `node` user the server runs as.
COPY --from=build /out/package.json ./
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/dist ./dist
# Reference data (kinds, flavors, data types, cast rules) loaded by `node dist/cli.js seed`.
COPY --from=build /out/seeds ./seeds
USER node
EXPOSE 8001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8001) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
