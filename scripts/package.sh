#!/bin/sh
# scripts/package.sh [OUTDIR] - the Debian package, end to end, as an
# operator would meet it (.ci/run's last step; needs root and apt):
#   1. dpkg-buildpackage -us -uc -b in a copy of the tree; lintian: no error;
#   2. apt-get install ./ffroute_*.deb;
#   3. OpenSM under ibsim (its own IBSIM_SOCKNAME) with the README's lines
#      and nothing from the build tree: the installed plugin routes ff2
#      (no fallback), its first log line names the version, ffroute check
#      --live (the installed command) passes per VL, man ffroute is there;
#   4. apt-get remove leaves only the conffile; purge removes it.
# The .deb files are left in OUTDIR (default: a temporary folder, removed).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-}
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq debhelper dpkg-dev fakeroot lintian >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-pkg.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "package: FAIL: $*"; exit 1; }

echo "== build"
mkdir "$work/ffroute"
(cd "$top" && git ls-files -co --exclude-standard | grep -v -E '^(build|obj-)' | tar -cf - -T -) |
	(cd "$work/ffroute" && tar -xf -)
[ -d "$top/.git" ] && cp -r "$top/.git" "$work/ffroute/"	# the revision in --version
(cd "$work/ffroute" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
	{ tail -40 "$work/build.log"; fail "dpkg-buildpackage"; }
deb=$(ls "$work"/ffroute_*_*.deb | grep -v dbgsym)
lintian --fail-on error "$deb" >"$work/lintian.txt" 2>&1 || { cat "$work/lintian.txt"; fail "lintian reports errors"; }
grep -v "running with root" "$work/lintian.txt" || true	# warnings, if any

echo "== install"
apt-get install -y -qq "$deb" >/dev/null || fail "apt-get install $deb"
for f in /usr/bin/ffroute /usr/bin/hfreduce-check /etc/opensm/ffroute.conf \
	/usr/share/man/man1/ffroute.1.gz; do
	[ -e "$f" ] || fail "$f not installed"
done
lib=$(dpkg -L ffroute | grep '/libffroute.so$') || fail "no libffroute.so in the package"
/usr/bin/ffroute --version | grep -q "^ffroute [0-9.]* (git " || fail "ffroute --version"

echo "== OpenSM with the installed plugin"
(
	unset LD_LIBRARY_PATH
	. "$top/tests/lib/sim.sh"
	sim_require
	sim_workdir
	sim_start "$top/fabrics/ff2-bridge-small.net" || fail "ibsim did not start"
	SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options /etc/opensm/ffroute.conf
routing_engine ffroute,updn
qos TRUE"
	sim_opensm || fail "opensm sweep failed"
	log=$SIM_DIR/opensm.log
	grep -q "ffroute [0-9.]* (git [^)]*) built for OpenSM 3.3.23" "$log" || fail "no version line from $lib"
	grep -q "ffroute tables configured on all switches" "$log" || fail "the installed plugin did not route"
	grep -q "ERR RE" "$log" && fail "ffroute errors: $(grep 'ERR RE' "$log" | head -3)"
	sim_run /usr/bin/ffroute check --live --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
		--sl2vl "$SIM_DIR/dump/opensm-sl2vl.dump" >"$SIM_DIR/live.txt" 2>&1 ||
		fail "check --live: $(head -20 "$SIM_DIR/live.txt")"
	echo "ok: $lib routed ff2-bridge-small inside OpenSM; ffroute check --live passes"
)

echo "== remove, purge"
apt-get remove -y -qq ffroute >/dev/null
for f in /usr/bin/ffroute /usr/bin/hfreduce-check "$lib" /usr/share/man/man1/ffroute.1.gz; do
	[ ! -e "$f" ] || fail "$f left after apt-get remove"
done
[ -f /etc/opensm/ffroute.conf ] || fail "the conffile went with apt-get remove"
apt-get purge -y -qq ffroute >/dev/null
[ ! -e /etc/opensm/ffroute.conf ] || fail "the conffile left after purge"
[ -n "$out" ] && mkdir -p "$out" && cp "$work"/*.deb "$out"/
echo "package OK"
