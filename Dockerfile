# The site as a container: a builder stage that installs and builds, and a runner stage with
# only the standalone output (docs/deployment.md). For a real Wix site: the local platform is
# not in the image; run `npm run platform` elsewhere for local mode.

FROM node:20-slim AS builder
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_IGNORE_INCORRECT_LOCKFILE=1
# better-sqlite3 (the local platform, a build-time dependency only) may need to compile.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# .next/standalone: server, traced node_modules, static files, public/ and site-server.mjs.
RUN npm run build

FROM node:20-slim AS runner
WORKDIR /app
# The heap limit keeps memory flat under load (docs/performance.md); raise it for large sites.
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 NODE_OPTIONS=--max-old-space-size=256
COPY --from=builder --chown=node:node /app/.next/standalone ./
# The image's own user, never root.
USER node
EXPOSE 3000
# /api/health answers 503 when the platform does not answer; the container is then unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "site-server.mjs"]
