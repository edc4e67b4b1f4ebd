# The site as a container: a builder stage that installs and builds, and a runner stage with
# only the standalone output (docs/deployment.md). The local platform is a workspace of its own
# (platform/): neither stage installs it, so no SQLite and no compiler; for local mode run
# `npm run platform` elsewhere.

FROM node:24-slim AS builder
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_IGNORE_INCORRECT_LOCKFILE=1
# Every workspace's package.json, which npm ci reads; only the site and the contract it shares are installed.
COPY package.json package-lock.json ./
COPY packages/platform-contract/package.json packages/platform-contract/
COPY platform/package.json platform/
# npm ci's last step (the postinstall script) checks the Node.js against .node-version with these.
COPY .node-version ./
COPY scripts/project-node.mjs scripts/child-exit.mjs scripts/
RUN npm ci --no-audit --no-fund --include-workspace-root --workspace=@ridgeline/platform-contract
COPY . .
# .next/standalone: server, traced node_modules, static files, public/ and site-server.mjs.
RUN npm run build

FROM node:24-slim AS runner
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
