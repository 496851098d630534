#!/usr/bin/env bash
# What `npm test` needs beyond `npm ci`, installed when missing; idempotent, well under a second
# when everything is there. `npm test` runs it first. (`npm start` installs its code-server
# itself, through the same install-code-server.sh.)
#   - Debian packages (scripts/install-apt.sh): installed as root or with password-less sudo,
#     otherwise one line says which `apt-get install` to run
#   - the real peers pi 0.87.1, pi 1.5.2, pi 0.73.1, oh-my-pi 18.2.3, the reference MCP server (server-everything), the real ACP agents gemini-cli and opencode, and the ACP client acpx (test/peers/install.sh)
#   - code-server ${PI_VSCODE_VERSIONS:-the versions in test/vscode/code-server-versions: the
#     minimum, 4.100.3, and the newest, 4.139.1} (scripts/install-code-server.sh; a new version
#     takes about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-apt.sh
bash test/peers/install.sh
IFS=, read -ra versions <<<"${PI_VSCODE_VERSIONS:-$(cat test/vscode/code-server-versions)}"
for version in "${versions[@]}"; do
  bash scripts/install-code-server.sh "$version"
done
