# lab.sh - the device lab: a loop device over a file served by labfs (bash only, source it after tests/cli/lib.sh).
#
# A test sources tests/cli/lib.sh, then this file, then uses:
#   need_lab                 skip (77) unless root, /dev/fuse and a built labfs
#   lab_start [LABFS-OPTION...]
#                            sweep mounts left by killed runs, then mount labfs
#                            (tests/lab/labfs.c; see labfs --help) in a private
#                            directory; sets LAB_DIR, LAB_MNT, LAB_FILE, LAB_LOG,
#                            LAB_PID. A setting labfs refuses fails the test
#                            with labfs's own message.
#   lab_loop                 a loop device over LAB_FILE with --direct-io=on,
#                            scheduler none, merging off; sets LAB_DEV. One per
#                            lab_start.
#   lab_queue_set KNOB VALUE queue/KNOB of LAB_DEV, put back by lab_stop
#   lab_arm                  restart labfs's request counters and clocks (SIGUSR1),
#                            so that --eio-nth, --stall, --hang-nth and
#                            --vanish-after count from here, after udev's probing
#   lab_requests [OP]        the log's request lines since the last arm (all ops,
#                            or only OP: read, write, flush, trim):
#                            SEQ OP OFFSET SIZE DELAY_NS SERVICE_NS RESULT ARRIVAL_NS
#   lab_stop                 kill labfs, put back the queue settings, detach the
#                            loop device, unmount, remove LAB_DIR; run on exit
#                            by lib.sh's at_exit
#   lab_sweep                find and remove lab mounts whose labfs is dead (and
#                            the loop devices over them): run by lab_start
#
# Only what this file made is touched: loop devices over a file under a lab
# mount, lab mounts (fsname diskbench-lab:PID) whose PID is no longer a labfs
# and whose test (LAB_DIR/owner) is gone, and directories
# /dev/shm/diskbench-lab.*. labfs exits when the test's shell
# dies (PR_SET_PDEATHSIG), so a killed test leaves at most a dead mount and a
# loop device over it, which the next lab_start removes. Call lab_start from
# the test's own shell, not from a subshell or $( ): the subshell's exit would
# end labfs.
# shellcheck disable=SC2034 # LAB_* are for the sourcing script

LAB_PREFIX=/dev/shm/diskbench-lab.
LAB_DEV=
LAB_PID=

need_lab()
{
	need_root
	need_cmd losetup umount udevadm
	[ -c /dev/fuse ] || skip "no /dev/fuse (FUSE missing): the device lab cannot run"
	if [ -z "${LABFS:-}" ] || ! [ -x "$LABFS" ]; then
		if [ -x "$LIB_DIR/../lab/labfs" ]; then
			LABFS=$LIB_DIR/../lab/labfs
		elif [ -x "$LIB_DIR/../../build/tests/lab/labfs" ]; then
			LABFS=$LIB_DIR/../../build/tests/lab/labfs
		else
			skip "labfs not built (configure found no libfuse3: apt-get install libfuse3-dev fuse3)"
		fi
	fi
	grep -qw fuse /proc/filesystems || skip "the kernel has no FUSE file system"
}

# Is PID a running labfs?
lab_alive()
{
	[ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = labfs ]
}

# Detach every loop device whose backing file is under the directory $1.
lab_detach_under()
{
	local dir=$1 name back
	while read -r name back; do
		case $back in
		"$dir"/*) lib_detach_loop "$name" ;;
		esac
	done < <(losetup -l -n -O NAME,BACK-FILE 2>/dev/null)
}

# Is DIR a mount point? From mountinfo: mountpoint(1) stats DIR, which
# fails on a mount whose labfs is gone (ENOTCONN) and calls it none.
lab_mounted()
{
	awk -v d="$1" '$5 == d { f = 1 } END { exit !f }' /proc/self/mountinfo
}

lab_unmount()
{
	local mnt=$1 i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		lab_mounted "$mnt" || return 0
		umount "$mnt" 2>/dev/null && return 0
		sleep 0.2
	done
	umount -l "$mnt" 2>/dev/null && return 0
	msg "warning: could not unmount $mnt"
	return 1
}

# Does the test that made the lab directory $1 still run?
lab_owner_alive()
{
	local owner
	owner=$(cat "$1/owner" 2>/dev/null)
	[ -n "$owner" ] && kill -0 "$owner" 2>/dev/null
}

lab_sweep()
{
	local mnt src pid dir
	# mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE SOURCE SUPEROPTS
	while read -r mnt src; do
		pid=${src#diskbench-lab:}
		lab_alive "$pid" && continue
		# labfs gone, but its test still runs (--vanish-mode exit): its own
		lab_owner_alive "$(dirname "$mnt")" && continue
		msg "removing a lab mount left by a killed run: $mnt ($src)"
		lab_queue_restore "$(dirname "$mnt")"
		lab_detach_under "$mnt"
		lab_unmount "$mnt" || continue
		dir=$(dirname "$mnt")
		case $dir in
		"${LAB_PREFIX%.}".*) rm -rf --one-file-system -- "$dir" ;;
		esac
	done < <(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) == "fuse.diskbench-lab") print $5, $(i + 2) }' /proc/self/mountinfo)
	# directories of killed runs whose mount is already gone
	for dir in "$LAB_PREFIX"*; do
		[ -d "$dir" ] || continue
		lab_mounted "$dir/mnt" && continue
		pid=$(cat "$dir/pid" 2>/dev/null)
		lab_alive "$pid" && continue
		lab_owner_alive "$dir" && continue
		# a lab_start of another test between mktemp and its labfs writing pid
		[ -n "$pid" ] || [ "$(($(date +%s) - $(stat -c %Y "$dir")))" -gt 60 ] || continue
		rm -rf --one-file-system -- "$dir"
	done
}

lab_start()
{
	local i
	[ -z "$LAB_PID" ] || fail "lab_start: a lab is already running here"
	lab_sweep
	LAB_DIR=$(mktemp -d "${LAB_PREFIX}XXXXXX") || fail "mktemp -d ${LAB_PREFIX}XXXXXX failed"
	echo "$$" >"$LAB_DIR/owner"
	at_exit lab_stop
	LAB_MNT=$LAB_DIR/mnt
	LAB_FILE=$LAB_MNT/disk
	LAB_LOG=$LAB_DIR/log
	mkdir "$LAB_MNT" || fail "cannot make $LAB_MNT"
	"$LABFS" "$LAB_MNT" --log "$LAB_LOG" "$@" 2>"$LAB_DIR/err" &
	LAB_PID=$!
	echo "$LAB_PID" >"$LAB_DIR/pid"
	for i in $(seq 100); do
		lab_mounted "$LAB_MNT" && break
		if ! kill -0 "$LAB_PID" 2>/dev/null; then
			wait "$LAB_PID"
			fail "labfs $*: exit $?: $(cat "$LAB_DIR/err")"
		fi
		sleep 0.05
	done
	lab_mounted "$LAB_MNT" || fail "labfs $*: not mounted after 5 s: $(cat "$LAB_DIR/err")"
	[ -f "$LAB_FILE" ] || fail "labfs: no $LAB_FILE"
}

lab_loop()
{
	local dio
	[ -n "$LAB_PID" ] || fail "lab_loop before lab_start"
	[ -z "$LAB_DEV" ] || fail "lab_loop: already have $LAB_DEV"
	LAB_DEV=$(losetup -f --show --direct-io=on "$LAB_FILE" 2>"$LAB_DIR/losetup.err") ||
		fail "losetup --direct-io=on $LAB_FILE: $(cat "$LAB_DIR/losetup.err")"
	dio=$(losetup -l -n -O DIO "$LAB_DEV" | tr -d ' ')
	[ "$dio" = 1 ] || fail "$LAB_DEV: the loop driver refused direct I/O over labfs"
	# the loop driver's own scheduler, whatever the number's last user left
	lab_queue_set scheduler none || true
	# Every request reaches labfs as diskbench made it: a batched
	# submission (--batch) is plugged, and the block layer would merge
	# neighbours into one read that labfs answers once. The device is ours
	# and goes with the lab.
	lab_queue_set nomerges 2 || fail "$LAB_DEV: cannot turn merging off"
	udevadm settle -t 5 2>/dev/null || true
}

# lab_queue_set KNOB VALUE: queue/KNOB of the lab's loop device, put back
# by lab_stop (lab_queue_restore). A loop device's queue outlives its
# attachment, so what the lab leaves, the next user of the number gets
# (the lab's nomerges 2 and max_sectors_kb 64 once halved cliff.sh's
# throttled rates). What was there is noted in LAB_DIR/queue, so that
# lab_sweep puts it back for a killed test too.
lab_queue_set()
{
	local f=/sys/block/$(basename "$LAB_DEV")/queue/$1 was
	was=$(cat "$f" 2>/dev/null) || return 1
	[ "$1" = scheduler ] && was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' <<<"$was")
	[ "$was" = "$2" ] && return 0
	echo "$f $was" >>"$LAB_DIR/queue" || return 1
	echo "$2" >"$f" 2>/dev/null || return 1
}

# lab_queue_restore DIR: put back what lab_queue_set noted in DIR/queue,
# last first, on the loop devices still over a file of DIR's mount: once
# labfs is gone (a limit written to a queue waits for it to drain, which
# a request labfs holds never does) and before they are detached (after
# that, another test may have the number).
lab_queue_restore()
{
	local dir=$1 f was dev
	[ -s "$dir/queue" ] || return 0
	while read -r f was; do
		dev=/dev/$(basename "$(dirname "$(dirname "$f")")")
		losetup -l -n -O BACK-FILE "$dev" 2>/dev/null | grep -q "^$dir/mnt/" || continue
		echo "$was" >"$f" 2>/dev/null || msg "warning: could not put back $f ($was)"
	done < <(tac "$dir/queue")
	: >"$dir/queue"
}

lab_arm()
{
	local n i
	n=$(grep -c '^# arm$' "$LAB_LOG")
	kill -USR1 "$LAB_PID" || fail "labfs (pid $LAB_PID) is gone"
	for i in $(seq 100); do
		[ "$(grep -c '^# arm$' "$LAB_LOG")" -gt "$n" ] && return 0
		sleep 0.02
	done
	fail "labfs did not log the arm"
}

lab_requests()
{
	awk -v op="${1:-}" '/^# arm$/ { n = 0; delete l; next } /^#/ { next }
		op == "" || $2 == op { l[n++] = $0 }
		END { for (i = 0; i < n; i++) print l[i] }' "$LAB_LOG"
}

lab_stop()
{
	local i
	[ -n "$LAB_DIR" ] || return 0
	# labfs first: its exit aborts the connection, so that every request
	# still held (a stall, a hang) fails at once and the detach cannot wait.
	if lab_alive "$LAB_PID"; then
		kill -TERM "$LAB_PID" 2>/dev/null
		for i in $(seq 40); do
			lab_alive "$LAB_PID" || break
			sleep 0.05
		done
		lab_alive "$LAB_PID" && kill -KILL "$LAB_PID" 2>/dev/null
	fi
	[ -n "$LAB_PID" ] && wait "$LAB_PID" 2>/dev/null
	lab_queue_restore "$LAB_DIR"
	[ -n "$LAB_DEV" ] && lib_detach_loop "$LAB_DEV"
	lab_detach_under "$LAB_MNT"
	lab_unmount "$LAB_MNT" && rm -rf --one-file-system -- "$LAB_DIR"
	LAB_DEV=
	LAB_PID=
	LAB_DIR=
}
