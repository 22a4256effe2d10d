# syntax=docker/dockerfile:1
# Production image of the portal (issue 16 §7, issue 24 §3), Node 20 like .nvmrc and engines:
#   build    installs everything and builds the API and the ops commands (esbuild bundles in dist/api and
#            dist/ops: scripts/build-api.mjs) and the SPA (dist/web);
#   deps     installs only the production dependencies (`npm ci --omit=dev`: no embedded PostgreSQL, no
#            React or other front-end packages, no build tools);
#   runtime  a slim Node image with those, the bundles, the SPA and the real data, running as the
#            unprivileged `node` user (the code belongs to root; only .data is writable).
# Entry point scripts/portal: `docker run … liquor-portal` serves; `docker run … liquor-portal db:migrate`
# (db:rollback, db:seed, db:import, users:invite, credentials:add) runs an ops command with plain node.
# Configuration comes from the environment (README "Configuration", "Deployment"); DATABASE_URL is
# required; payment test mode and demo data are off.
ARG NODE_VERSION=20
# npm 11 like the README: it runs only the install scripts package.json's allowScripts lists.
ARG NPM_VERSION=11

FROM node:${NODE_VERSION}-bookworm-slim AS build
ARG NPM_VERSION
WORKDIR /app
ENV NX_DAEMON=false CI=true
RUN npm install -g "npm@${NPM_VERSION}" --no-audit --no-fund
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
  && mkdir -p .data

FROM node:${NODE_VERSION}-bookworm-slim AS deps
ARG NPM_VERSION
WORKDIR /app
RUN npm install -g "npm@${NPM_VERSION}" --no-audit --no-fund
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY libs/contracts/package.json libs/contracts/
COPY migrations/package.json migrations/
COPY seeds/package.json seeds/
# The workspaces' links (@portal/*) point at sources the image does not hold: the bundles contain them.
RUN npm ci --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/@portal \
  && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    WEB_DIR=dist/web \
    SHARED_DATA_DIR=data/iowa-abd \
    PAYMENT_TEST_MODE=false \
    SEED_DEMO=false \
    PORTAL_HOME=/app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/api ./dist/api
COPY --from=build /app/dist/ops ./dist/ops
COPY --from=build /app/dist/web ./dist/web
COPY --from=build /app/data ./data
COPY --from=build --chown=node:node /app/.data ./.data
COPY --from=build --chmod=755 /app/scripts/portal /usr/local/bin/portal
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=180s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["portal"]
CMD ["serve"]
