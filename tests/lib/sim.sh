# shellcheck shell=sh
# tests/lib/sim.sh - start/stop ibsim and OpenSM for integration tests.
#
# Source it, then:
#   sim_require            skip (exit 77) unless ibsim/opensm/umad2sim exist
#   sim_workdir            make $SIM_DIR (removed on exit, even on failure)
#   sim_start NETFILE      start ibsim in the background with its own
#                          IBSIM_SOCKNAME; sets SIM_PID
#   sim_start_console NETFILE, sim_console CMD
#                          the same with ibsim's console on a FIFO (fd 3)
#   sim_run CMD ...        run a umad client (LD_PRELOAD umad2sim)
#   sim_opensm [ARGS]      one OpenSM sweep (-o) with dumps in $SIM_DIR/dump,
#                          log in $SIM_DIR/opensm.log; extra lines for the
#                          config file come from $SIM_OSM_CONF
#   sim_plugin_env LIBDIR  let OpenSM load libffroute.so from LIBDIR
#   sim_bench_start BUILDDIR  a benchmark's start: the three above
#   sim_stop               stop what sim_start started (by PID)
# Every ibsim gets a unique socket name, so parallel runs never collide.

UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
SIM_PID=
SIM_DIR=

sim_require() {
	for c in ibsim opensm; do
		command -v "$c" >/dev/null 2>&1 || { echo "SKIP: $c not installed"; exit 77; }
	done
	[ -f "$UMAD2SIM" ] || { echo "SKIP: $UMAD2SIM missing (ibsim-utils)"; exit 77; }
}

# Runs from the EXIT trap, possibly under set -e: nothing here may fail.
sim_cleanup() {
	sim_opensm_stop || true
	sim_stop || true
	if [ -n "$SIM_DIR" ] && [ -z "${SIM_KEEP:-}" ]; then
		rm -rf "$SIM_DIR" || true
	fi
}

sim_workdir() {
	SIM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ffr-sim.XXXXXX")
	mkdir -p "$SIM_DIR/dump" "$SIM_DIR/cache"
	trap 'sim_cleanup' EXIT
	trap 'exit 1' INT TERM HUP PIPE
}

# sim_start NETFILE [extra ibsim args]
sim_start() {
	net=$1
	shift
	IBSIM_SOCKNAME="ffr$$_$(date +%s%N | cut -c10-16)"
	export IBSIM_SOCKNAME
	ibsim -s -n "$@" "$net" >"$SIM_DIR/ibsim.log" 2>&1 &
	SIM_PID=$!
	sim_wait_ready
}

# sim_start_console NETFILE [IBSIM ARGS]: as sim_start, with ibsim's console
# fed from the FIFO $SIM_DIR/console, held open on fd 3 (so ibsim never reads
# EOF); sim_console CMD sends it a command (Unlink, ReLink, ...).
sim_start_console() {
	net=$1
	shift
	rm -f "$SIM_DIR/console"
	mkfifo "$SIM_DIR/console" || return 1
	IBSIM_SOCKNAME="ffr$$_$(date +%s%N | cut -c10-16)"
	export IBSIM_SOCKNAME
	ibsim -s "$@" "$net" <"$SIM_DIR/console" >"$SIM_DIR/ibsim.log" 2>&1 &
	SIM_PID=$!
	exec 3>"$SIM_DIR/console"
	sim_wait_ready
}

sim_console() {
	echo "$*" >&3
}

# wait until the simulator listens (it prints the fabric summary first)
sim_wait_ready() {
	i=0
	while [ $i -lt 100 ]; do
		if ! kill -0 "$SIM_PID" 2>/dev/null; then
			echo "ibsim exited early:"; cat "$SIM_DIR/ibsim.log"; SIM_PID=; return 1
		fi
		grep -q "simulator ready" "$SIM_DIR/ibsim.log" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	return 0
}

sim_stop() {
	if [ -n "$SIM_PID" ]; then
		kill "$SIM_PID" 2>/dev/null || true
		wait "$SIM_PID" 2>/dev/null || true	# 143: killed by us
		SIM_PID=
	fi
}

sim_run() {
	LD_PRELOAD=$UMAD2SIM IBSIM_SOCKNAME=$IBSIM_SOCKNAME "$@"
}

# sim_pr_sl SLID DLID [saquery args]: the SL of the SA's PathRecord, or "none"
sim_pr_sl() {
	_s=$1 _d=$2
	shift 2
	sim_run saquery -p --slid "$_s" --dlid "$_d" "$@" 2>/dev/null |
		awk -F. '$1 ~ /^[ \t]*sl$/ { v = $NF; sub(/^0x/, "", v)
			v = index("0123456789abcdef", tolower(v)) - 1 }
			END { print (v == "" ? "none" : v) }'
}

# sim_vlarb_low LID [PORT]: "VL:W,..." of the entries with a weight in the
# port's low-priority VL arbitration table, read with smpquery
sim_vlarb_low() {
	sim_run smpquery vlarb "$@" 2>/dev/null | awk -F'|' '
		function hex(s,  v, i) { s = tolower(s); sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		/^# Low/ { t = 1 } /^# High/ { t = 0 }
		t && /^VL/ { for (i = 2; i < NF; i++) { v = $i; gsub(/ /, "", v); vl[i] = v } }
		t && /^WEIGHT/ { for (i = 2; i < NF; i++) { w = $i; gsub(/ /, "", w)
			if (w != "0x0") printf "%s%d:%d", (n++ ? "," : ""), hex(vl[i]), hex(w) } }
		END { print "" }'
}

# sim_osm_conf: $SIM_DIR/opensm.conf (dumps, log, $SIM_OSM_CONF) and an
# empty log: OpenSM appends, and a check must see only this run's lines.
sim_osm_conf() {
	conf=$SIM_DIR/opensm.conf
	{
		echo "dump_files_dir $SIM_DIR/dump"
		echo "log_file $SIM_DIR/opensm.log"
		echo "log_flags 0x47"
		echo "force_log_flush TRUE"	# a line cut at a stdio buffer is half a pass
		[ -n "${SIM_OSM_CONF:-}" ] && printf '%s\n' "$SIM_OSM_CONF"
	} >"$conf"
	: >"$SIM_DIR/opensm.log"
}

# sim_opensm [opensm args]: one sweep, exits; 0 if the subnet came up
sim_opensm() {
	sim_osm_conf
	OSM_CACHE_DIR=$SIM_DIR/cache OSM_TMP_DIR=$SIM_DIR \
		timeout "${SIM_OSM_TIMEOUT:-120}" env LD_PRELOAD="$UMAD2SIM" \
		IBSIM_SOCKNAME="$IBSIM_SOCKNAME" opensm -F "$conf" -o "$@" \
		>"$SIM_DIR/opensm.out" 2>&1
}

# sim_opensm_bg [opensm args]: OpenSM in the background (the SA answers
# queries), waits for SUBNET UP; stop it with sim_opensm_stop (also on exit).
OSM_PID=
sim_opensm_bg() {
	sim_osm_conf
	OSM_CACHE_DIR=$SIM_DIR/cache OSM_TMP_DIR=$SIM_DIR \
		timeout "${SIM_OSM_TIMEOUT:-300}" env LD_PRELOAD="$UMAD2SIM" \
		IBSIM_SOCKNAME="$IBSIM_SOCKNAME" opensm -F "$conf" "$@" \
		>"$SIM_DIR/opensm.out" 2>&1 &
	OSM_PID=$!
	i=0
	while [ $i -lt 600 ]; do
		grep -q "SUBNET UP" "$SIM_DIR/opensm.log" 2>/dev/null && return 0
		kill -0 "$OSM_PID" 2>/dev/null || { OSM_PID=; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# sim_wait_pass N: until the plugin logs "ffroute: pass N:" in $log, then a
# second for the tables it configures; 1 after a minute without it
sim_wait_pass() {
	i=0
	until grep -q "ffroute: pass $1:" "$log"; do
		i=$((i + 1)); [ $i -gt 600 ] && return 1; sleep 0.1
	done
	sleep 1
}

sim_opensm_stop() {
	if [ -n "$OSM_PID" ]; then
		kill "$OSM_PID" 2>/dev/null || true
		wait "$OSM_PID" 2>/dev/null || true
		OSM_PID=
	fi
}

# sim_engine_conf ENGINE: SIM_OSM_CONF for one routing engine; "ffroute" is
# the plugin, as an operator configures it (falling back to updn), with QoS
# on so its VL layers are programmed.
sim_engine_conf() {
	SIM_OSM_CONF="routing_engine $1"
	[ "$1" = ffroute ] && SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,updn
qos TRUE"
	return 0
}

# sim_bench_conf ENGINE: sim_engine_conf with QoS on for every engine, as
# the benchmarks compare them (dfsssp and nue may use VLs too).
sim_bench_conf() {
	sim_engine_conf "$1"
	[ "$1" = ffroute ] || SIM_OSM_CONF="$SIM_OSM_CONF
qos TRUE"
	return 0
}

# sim_bench_start BUILDDIR: what a benchmark under ibsim starts with: ibsim
# and OpenSM present (else exit 77), a work directory ($SIM_DIR, removed
# on exit), OpenSM finding BUILDDIR's plugin
sim_bench_start() {
	sim_require
	sim_workdir
	sim_plugin_env "$1/opensm/.libs"
}

# sim_net_limits NET: the ibsim options a .net file written by ffroute asks
# for in its header ("# run as: ibsim -N ... -S ... -P ...") when it exceeds
# ibsim's default limits; nothing otherwise
sim_net_limits() {
	sed -n '1,10s/^# run as: ibsim \(-N [0-9]* -S [0-9]* -P [0-9]*\)$/\1/p' "$1"
}

# sim_bench_sweep NET ENGINE: one OpenSM sweep of ENGINE (sim_bench_conf) on
# a fresh ibsim of NET, the tables dumped into $SIM_DIR/dump; 1 if ibsim did
# not start (OpenSM's own failure is the benchmark's to report)
sim_bench_sweep() {
	rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
	# shellcheck disable=SC2046 # the limits are words
	sim_start "$1" $(sim_net_limits "$1") </dev/null >/dev/null || return 1
	sim_bench_conf "$2"
	sim_opensm </dev/null >/dev/null 2>&1 || true
	sim_stop
}

# sim_engine_used: the engine whose tables the last sweep configured, from its log
sim_engine_used() {
	grep -o -E "[a-z0-9]+ tables configured on all switches" "$SIM_DIR/opensm.log" |
		tail -1 | cut -d' ' -f1
}

# sim_route_secs ENGINE [NONE]: seconds from "building routing with ENGINE"
# to "tables configured" in the last sweep's log, else NONE (default null)
sim_route_secs() {
	awk -v e="$1" -v none="${2:-null}" '
		function t(l, a) { split($3, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] + $4 / 1e6 }
		index($0, "building routing with \047" e "\047") && !s { s = t() }
		/tables configured on all switches/ && s && !d { d = t() }
		END { if (s && d) printf "%.3f", d - s; else printf "%s", none }' "$SIM_DIR/opensm.log"
}

# sim_plugin_env LIBDIR: OpenSM dlopen()s "libffroute.so" by name, with the
# ordinary loader search.
sim_plugin_env() {
	LD_LIBRARY_PATH="$1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
}

# sim_plugin_test: what every test of the plugin starts with: ibsim and
# OpenSM present (else exit 77), the plugin built (else exit 77), plugdir
# and FFROUTE set, a work directory ($SIM_DIR, log=$SIM_DIR/opensm.log),
# OpenSM finding the plugin, and the sanitizers' options for a plugin
# that OpenSM dlopen()s.
sim_plugin_test() {
	sim_require
	plugdir=$top_builddir/opensm/.libs
	FFROUTE=${FFROUTE:-$top_builddir/tools/ffroute}
	[ -f "$plugdir/libffroute.so" ] || { echo "SKIP: plugin not built"; exit 77; }
	sim_workdir
	log=$SIM_DIR/opensm.log
	sim_plugin_env "$plugdir"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:replace_intrin=0"
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/data/engines/lsan.supp"
	export ASAN_OPTIONS LSAN_OPTIONS
}
