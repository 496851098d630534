#!/usr/bin/env bash
# Debian packages the real-VS-Code harness needs: kerberos headers (code-server's native
# `kerberos` module), ripgrep (VS Code search, instead of @vscode/ripgrep's download),
# chromium (the headless browser playwright-core drives) and openssl (a throwaway certificate
# for the HTTPS-through-proxy test). Idempotent: fast when present.
set -euo pipefail

packages=(libkrb5-dev ripgrep chromium openssl)
missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
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
