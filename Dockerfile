# syntax=docker/dockerfile:1
# Production image of the portal (issue 16 §7): stage 1 installs everything and builds the API bundle and
# the SPA; stage 2 is a slim Node image with only the production dependencies, the build and the real data,
# running as the unprivileged `node` user. Configuration comes from the environment (README "Deployment");
# payment test mode and demo data are off.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
ENV NX_DAEMON=false CI=true
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY libs/contracts/package.json libs/contracts/
COPY migrations/package.json migrations/
COPY seeds/package.json seeds/
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build-api.mjs \
  && node node_modules/vite/bin/vite.js build --config apps/web/vite.config.ts --logLevel warn \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    WEB_DIR=dist/web \
    SHARED_DATA_DIR=data/iowa-abd \
    PAYMENT_TEST_MODE=false \
    SEED_DEMO=false
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/data ./data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=180s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/api/main.js"]
