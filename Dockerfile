# syntax=docker/dockerfile:1
# Herald's container image: the official Node 24 slim image, production dependencies only, a non-root user, all data
# in one volume. Every install and start step is deploy/image.sh, which test/deploy/image.test.ts runs on this
# repository too. See docs/deployment.md.
ARG NODE_IMAGE=node:24-slim

# The web app is built with the development tools (Vite), which the runtime image does not carry.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY bin bin
COPY src src
COPY web web
COPY deploy deploy
RUN deploy/image.sh build

FROM ${NODE_IMAGE}
# ffmpeg/ffprobe (video facts and frames), tesseract with English data (text in images), tini (signals).
COPY deploy/image.sh /tmp/image.sh
RUN sh /tmp/image.sh packages && rm /tmp/image.sh
WORKDIR /app
# The files the application runs from; test/deploy/image.test.ts copies the same list (the COPY lines below, up to the RUN).
COPY package.json package-lock.json .npmrc ./
COPY bin bin
COPY src src
COPY deploy deploy
# OPTIONAL_FEATURES="s3 openai" (docker build --build-arg) adds the packages those features need, which the server
# install leaves out: s3 (HERALD_STORAGE=s3), openai, anthropic, google, openai-compatible (HERALD_AI_PROVIDER).
ARG OPTIONAL_FEATURES=""
# CJK_FONTS=1 (docker build --build-arg) adds the built-in AI provider's Chinese/Japanese and Korean card
# fonts (130 MB); without them such characters are left blank on a card (docs/ai.md).
ARG CJK_FONTS=0
# (optional before cjk-fonts: npm install removes packages it did not install, such as the unpacked fonts)
RUN deploy/image.sh install && if [ -n "$OPTIONAL_FEATURES" ]; then deploy/image.sh optional $OPTIONAL_FEATURES; fi \
  && if [ "$CJK_FONTS" = 1 ]; then deploy/image.sh cjk-fonts; fi \
  && npm cache clean --force
COPY --from=build /app/web/dist web/dist
RUN groupadd --system --gid 10001 herald \
  && useradd --system --uid 10001 --gid herald --home-dir /home/herald --create-home --shell /usr/sbin/nologin herald \
  && mkdir -p /data && chown herald:herald /data
ENV NODE_ENV=production \
  HERALD_DATA_DIR=/data \
  PORT=8080 \
  HOST=0.0.0.0 \
  HERALD_LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080
USER herald
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["/app/deploy/image.sh", "health"]
ENTRYPOINT ["/usr/bin/tini", "--", "/app/deploy/image.sh", "start"]
CMD ["serve"]
