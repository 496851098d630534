#!/usr/bin/env bash
# Debian packages the tests and `npm start` need. Idempotent: fast when present.
#   scripts/install-apt.sh              all of them (the tests)
#   scripts/install-apt.sh pkg ...      only these (install-code-server.sh: what its build needs)
# As root, or with password-less sudo, it installs the missing ones; otherwise it prints the one
# `apt-get install` line to run and fails.
#   libkrb5-dev, make, g++, python3  code-server's native modules (kerberos, node-pty, ...)
#   ripgrep    VS Code's search (instead of @vscode/ripgrep's download) and the agent's grep tool
#   chromium   the headless browser playwright-core drives (test:vscode)
#   openssl    a throwaway certificate for the HTTPS-through-proxy test
#   bubblewrap the sandbox of the agent's commands (bwrap; tested for real)
set -euo pipefail

if [ $# -gt 0 ]; then packages=("$@"); else packages=(libkrb5-dev make g++ python3 ripgrep chromium openssl bubblewrap); fi
missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v apt-get >/dev/null || ! sudo -n true 2>/dev/null; then
    echo "Missing Debian packages: ${missing[*]}. Install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  sudo_cmd=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
start=$(date +%s)
echo "install-apt: installing ${missing[*]}"

apt_install() { "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null; }
# Update the package lists only when they are missing or the install fails with the old ones.
if ! compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null; then
  "${sudo_cmd[@]}" apt-get update -qq
fi
if ! apt_install; then
  "${sudo_cmd[@]}" apt-get update -qq
  apt_install
fi
echo "install-apt: done in $(( $(date +%s) - start )) s"
