#!/bin/sh
# scripts/bootstrap.sh - install what ffroute needs on Debian 12, then build.
#   scripts/bootstrap.sh deps        install Debian packages (needs root)
#   scripts/bootstrap.sh build [DIR] configure and build in DIR (default build/)
#   scripts/bootstrap.sh demo        deps + build + the main job on the demo fabric
#   scripts/bootstrap.sh test        deps + build + the whole test suite
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
PKGS="build-essential autoconf automake libtool pkg-config \
 libcmocka-dev libibumad-dev libibmad-dev libibnetdisc-dev libibverbs-dev \
 opensm libopensm-dev ibsim-utils infiniband-diags clang valgrind jq chromium"

deps() {
	missing=
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	echo "installing:$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
}

build() {
	dir=${1:-$top/build}
	if [ $# -gt 0 ]; then shift; fi
	cd "$top"
	if [ ! -x configure ] && ! ./autogen.sh >/tmp/ffroute-autogen.$$ 2>&1; then
		cat /tmp/ffroute-autogen.$$; rm -f /tmp/ffroute-autogen.$$; exit 1
	fi
	rm -f /tmp/ffroute-autogen.$$
	mkdir -p "$dir"
	cd "$dir"
	[ -f Makefile ] || "$top/configure" --enable-werror "$@" >/dev/null
	make -j"$(nproc)" >/dev/null
}

case ${1:-} in
deps) deps ;;
build) shift; build "$@" ;;
demo) deps; build; exec "$top/scripts/demo.sh" "$top/build" ;;
test) deps; build; cd "$top/build"; exec make -j"$(nproc)" check ;;
*) sed -n '2,6p' "$0"; exit 2 ;;
esac
