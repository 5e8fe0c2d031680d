#!/usr/bin/env bash
# Installs the real Claude Code client for tests/real_claude.rs into a cache folder outside
# the repository, reused between runs, and prints the path of its `claude` binary.
#
#   tests/real_claude/install.sh [VERSION]     (default: $MEMWB_CLAUDE_CODE_VERSION, else 2.1.332)
#
# `latest` (or any npm tag) is resolved to a version first. Only the platform package
# (@anthropic-ai/claude-code-linux-x64) is installed: it ships a native `claude` that needs
# neither Node >= 22 nor the main package's postinstall script.
set -euo pipefail
pinned=2.1.332
version=${1:-${MEMWB_CLAUDE_CODE_VERSION:-$pinned}}
case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "install.sh: no Claude Code build for $(uname -m)" >&2; exit 1 ;;
esac
package="@anthropic-ai/claude-code-linux-$arch"
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    version=$(npm view "$package@$version" version)
fi
cache=${XDG_CACHE_HOME:-$HOME/.cache}/memwb-test/claude-code/$version
binary=$cache/node_modules/$package/claude
if ! [ -x "$binary" ]; then
    mkdir -p "$cache"
    # Into a fresh folder beside the cache, then renamed: a run stopped halfway leaves no
    # half-installed client that a later run would take for a good one.
    partial=$(mktemp -d "$cache.partial.XXXXXX")
    npm install --prefix "$partial" --no-save --ignore-scripts --no-audit --no-fund \
        --loglevel=error "$package@$version" >&2
    rm -rf "$cache"
    mv "$partial" "$cache"
fi
"$binary" --version >&2
echo "$binary"
