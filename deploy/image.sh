#!/bin/sh
# What Herald's container image runs, in one place: the Dockerfile calls it to build and install, and as the
# container's entry point and health check. test/deploy/image.test.ts runs the same install and start on a
# copy of the repository, so what the image runs is what the tests run.
#
#   deploy/image.sh packages     Debian packages Herald calls at run time (ffmpeg/ffprobe, tesseract + English)
#   deploy/image.sh build        full install with development tools, which builds the web app into web/dist
#   deploy/image.sh install      production dependencies only, from package-lock.json, no install scripts
#   deploy/image.sh cjk-fonts    adds the optional Chinese/Japanese and Korean card fonts (development dependencies,
#                                so \`install\` leaves them out) at the versions package-lock.json pins (docs/ai.md)
#   deploy/image.sh optional <feature…>  adds the optional packages of features (s3, openai, anthropic, google,
#                                openai-compatible: S3 storage, an external AI provider) at the versions package-lock.json
#                                pins (src/optional-packages.ts, docs/deployment.md)
#   deploy/image.sh start [cmd]  waits for DATABASE_URL's server when one is set, then runs `herald <cmd>` (serve)
#   deploy/image.sh health       exits 0 when GET /healthz answers 200 on 127.0.0.1:$PORT
#
# Extra npm flags (e.g. --prefer-offline) can be passed in HERALD_NPM_FLAGS.
set -eu
APP_DIR=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$APP_DIR"

command=${1:-start}
[ "$#" -gt 0 ] && shift

case "$command" in
  packages)
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ffmpeg tesseract-ocr tesseract-ocr-eng ca-certificates tini
    rm -rf /var/lib/apt/lists/*
    ;;
  build)
    # shellcheck disable=SC2086 # HERALD_NPM_FLAGS is a list of flags
    npm ci --no-audit --no-fund ${HERALD_NPM_FLAGS:-}
    test -f web/dist/index.html || { echo "image.sh: the web app was not built (web/dist)" >&2; exit 1; }
    ;;
  install)
    # `prepare` would build the web app, which needs the development tools: the build stage did that already.
    # shellcheck disable=SC2086
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund ${HERALD_NPM_FLAGS:-}
    ;;
  cjk-fonts)
    # npm cannot add a development dependency to an install that omits them (\`npm install --omit=dev <pkg>\` skips
    # it), so each package's tarball is fetched from the registry and unpacked where Node resolves it. Nothing else
    # depends on them; the next \`npm ci\` removes them again.
    for pkg in @fontsource/noto-sans-sc @fontsource/noto-sans-kr; do
      version=$(node -e 'const p = require("./package-lock.json").packages["node_modules/" + process.argv[1]];
        if (!p) process.exit(1); console.log(p.version)' "$pkg")
      tarball=$(npm pack --silent "$pkg@$version")
      mkdir -p "node_modules/$pkg"
      tar -xzf "$tarball" -C "node_modules/$pkg" --strip-components=1
      rm -f "$tarball"
    done
    ;;
  optional)
    [ "$#" -gt 0 ] || { echo "usage: deploy/image.sh optional s3|openai|anthropic|google|openai-compatible…" >&2; exit 64; }
    # The features' packages, deduplicated, as one npm command (installCommand: --no-save --save-prod, pinned versions).
    install=$(node --input-type=module -e '
      import { OPTIONAL_FEATURES, installCommand } from "./src/optional-packages.ts";
      // disk and builtin (HERALD_STORAGE, HERALD_AI_PROVIDER values that compose may pass) need nothing.
      const names = process.argv.slice(1).filter((n) => n !== "disk" && n !== "builtin");
      const bad = names.filter((n) => !(n in OPTIONAL_FEATURES));
      if (bad.length) { console.error(`image.sh: unknown feature ${bad.join(", ")}`); process.exit(64); }
      if (names.length) console.log(installCommand([...new Set(names.flatMap((n) => OPTIONAL_FEATURES[n].packages))]));
    ' "$@")
    [ -n "$install" ] || exit 0
    # shellcheck disable=SC2086 # the command and its package specs are words
    $install --ignore-scripts --no-audit --no-fund ${HERALD_NPM_FLAGS:-}
    ;;
  start)
    if [ -n "${DATABASE_URL:-}" ]; then
      # The database may still be starting (a fresh compose install): wait for it rather than exit at once.
      node deploy/wait-for-database.js 120
    fi
    mkdir -p "${HERALD_DATA_DIR:-./data}"
    [ "$#" -eq 0 ] && set -- serve
    # V8's young generation capped at Node 20's size (docs/configuration.md, NODE_OPTIONS); a flag given in
    # NODE_OPTIONS comes after this one and wins.
    export NODE_OPTIONS="--max-semi-space-size=16${NODE_OPTIONS:+ $NODE_OPTIONS}"
    exec node bin/herald.js "$@"
    ;;
  health)
    exec node -e '
      const port = process.env.PORT || "8080";
      fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) })
        .then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1));
    '
    ;;
  *)
    echo "usage: deploy/image.sh packages|build|install|cjk-fonts|optional <feature…>|start [serve|worker|migrate]|health" >&2
    exit 64
    ;;
esac
