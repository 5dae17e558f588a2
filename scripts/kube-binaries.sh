#!/usr/bin/env bash
# Builds kube-apiserver and kube-controller-manager (Kubernetes 1.20.2) from Debian's `kubernetes` source
# package, once, into a cache outside the repository, and prints the directory holding them. The integration
# tests of provider-helm run them with etcd on loopback. A cold build takes about 12 minutes on 2 cores.
#
#   ZOP_KUBE_CACHE   where the binaries are cached (default ~/.cache/zop-provisioner/kube-1.20.2)
set -euo pipefail

cache="${ZOP_KUBE_CACHE:-$HOME/.cache/zop-provisioner/kube-1.20.2}"
if [[ -x "$cache/kube-apiserver" && -x "$cache/kube-controller-manager" ]]; then
  echo "$cache"
  exit 0
fi

log() { echo "kube-binaries: $*" >&2; }

packages=(golang-go etcd-server golang-github-modern-go-reflect2-dev rsync jq openssl dpkg-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  apt-get install -y -q "${missing[@]}" >&2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/zop-kube-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# a private source list, so the machine's apt configuration is left as it was
mkdir -p "$work/apt/lists/partial" "$work/apt/sources.list.d"
echo "deb-src http://deb.debian.org/debian bookworm main" > "$work/apt/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$work/apt/sources.list" -o "Dir::Etc::sourceparts=$work/apt/sources.list.d"
  -o "Dir::State::Lists=$work/apt/lists")
log "fetching the kubernetes source package"
apt-get "${apt_opts[@]}" update -q >&2
(cd "$work" && apt-get "${apt_opts[@]}" source -q --download-only kubernetes >&2 \
  && dpkg-source -x --skip-patches kubernetes_*.dsc src >&2)

tree="$work/src"
# The vendored reflect2 crashes the server on the first custom resource under Go 1.19; Debian's 1.0.2 does not.
rm -f "$tree"/vendor/github.com/modern-go/reflect2/*.go "$tree"/vendor/github.com/modern-go/reflect2/*.s
cp /usr/share/gocode/src/github.com/modern-go/reflect2/*.go "$tree/vendor/github.com/modern-go/reflect2/"
cp /usr/share/gocode/src/github.com/modern-go/reflect2/*.s "$tree/vendor/github.com/modern-go/reflect2/" \
  2>/dev/null || true

log "building kube-apiserver and kube-controller-manager (about 12 minutes)"
(cd "$tree" && GOPROXY=off GOFLAGS=-mod=vendor CGO_ENABLED=0 KUBE_GIT_VERSION=v1.20.2 KUBE_GIT_TREE_STATE=clean \
  make WHAT="cmd/kube-apiserver cmd/kube-controller-manager" >&2)

mkdir -p "$cache"
cp "$tree"/_output/bin/kube-apiserver "$tree"/_output/bin/kube-controller-manager "$cache/"
log "cached in $cache"
echo "$cache"
