# engines.sh — start and stop the external job engines the scale tests use
# (sourced by tests/e2e/*.sh, never run on its own):
#
#   parallel_check            GNU parallel is installed and runs a job
#   slurm_start DIR           a single-node Slurm on loopback under DIR:
#                             munged with its own key and socket, slurmctld
#                             and slurmd with a slurm.conf describing this
#                             node's real CPUs and memory; SLURM_CONF is
#                             exported for sbatch/squeue/scontrol
#   slurm_stop                stop what slurm_start started (idempotent;
#                             call it from the test's EXIT trap)
#   slurm_wait_job ID SECS    wait until job ID (and every array task of
#                             it) has left the queue; 1 on timeout
#
# Every function that cannot get its engine going returns 1 and leaves the
# reason in ENGINE_SKIP; the tests then exit 77 with "SKIP: $ENGINE_SKIP".
# Only a missing program, a missing privilege or a daemon that refuses to
# start is a reason to skip: once the engine runs, every failure is a
# failure.
#
# Debian 12 packages: parallel, munge, slurm-wlm (slurmctld, slurmd,
# slurm-client; scripts/bootstrap installs them).  Everything the daemons
# write (state, spool, logs, pid files, the munge key and socket) stays
# under DIR, and the ports are picked free at start, so two tests never
# collide and nothing of the host's own Slurm or munge configuration is
# used.

ENGINE_SKIP=""
_slurm_dir=""
_slurm_pids=()

parallel_check() {
	if ! command -v parallel >/dev/null 2>&1; then
		ENGINE_SKIP="GNU parallel is not installed (Debian package 'parallel'; scripts/bootstrap installs it)"
		return 1
	fi
	if ! parallel --version 2>/dev/null | head -1 | grep -q '^GNU parallel'; then
		ENGINE_SKIP="'parallel' is not GNU parallel (moreutils' parallel?): $(command -v parallel)"
		return 1
	fi
	local out
	out=$(parallel --will-cite -j2 echo ::: a b 2>&1 | sort | tr '\n' ' ')
	if [ "$out" != "a b " ]; then
		ENGINE_SKIP="GNU parallel does not run a trivial job here: $out"
		return 1
	fi
	return 0
}

# A TCP port nothing listens on (the kernel's choice of a free one).
_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Show a daemon's log tail in the skip reason or failure message.
_slurm_log_tail() {
	local f=$1
	[ -f "$f" ] && tail -n 5 "$f" | tr '\n' ' ' | cut -c1-600
}

_slurm_write_conf() {
	local d=$1 node=$2 user=$3 hw=$4 ctld_port=$5 slurmd_port=$6
	# `slurmd -C` prints this node's real layout: NodeName=<n> CPUs=..
	# Boards=.. SocketsPerBoard=.. CoresPerSocket=.. ThreadsPerCore=..
	# RealMemory=..; keep all but its name and add the loopback address.
	local layout
	layout=$(echo "$hw" | head -1 | sed 's/^NodeName=[^ ]* //')
	cat >"$d/slurm.conf" <<EOF
# Written by tests/lib/engines.sh for one test; removed with it.
ClusterName=ngcctest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
# Start a submitted batch job at once rather than after up to 3 s of
# batching (measured here: an array of two 1 s jobs and a job depending on
# it took 5.0 s by default, 4.1 s with this).
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
MinJobAge=300
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 $layout State=UNKNOWN
PartitionName=ngcctest Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

_slurm_start_munge() {
	local d=$1
	mkdir -p "$d/munge" && chmod 0700 "$d/munge"
	# The daemon insists on a private key file and a socket directory
	# that others may traverse.
	head -c 1024 /dev/urandom >"$d/munge/munge.key"
	chmod 0400 "$d/munge/munge.key"
	chmod 0711 "$d/munge"
	munged --foreground --force --key-file="$d/munge/munge.key" \
		--socket="$d/munge/munge.socket" --pid-file="$d/munge/munged.pid" \
		--seed-file="$d/munge/munged.seed" --log-file="$d/log/munged.log" \
		>"$d/log/munged.out" 2>&1 &
	_slurm_pids+=($!)
	local i
	for i in $(seq 50); do
		munge -S "$d/munge/munge.socket" -n 2>/dev/null |
			unmunge -S "$d/munge/munge.socket" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	ENGINE_SKIP="munged does not start: $(_slurm_log_tail "$d/log/munged.out")"
	return 1
}

slurm_start() {
	local d=$1 p
	for p in munged munge slurmctld slurmd sbatch squeue scontrol sinfo; do
		if ! command -v "$p" >/dev/null 2>&1; then
			ENGINE_SKIP="Slurm is not installed ($p missing; Debian packages slurmctld, slurmd, slurm-client, munge; scripts/bootstrap installs them)"
			return 1
		fi
	done
	_slurm_dir=$d
	mkdir -p "$d/state" "$d/spool" "$d/log" "$d/run"
	local node user hw
	node=$(hostname -s)
	user=$(id -un)
	if ! hw=$(slurmd -C 2>&1) || ! echo "$hw" | grep -q '^NodeName=.* CPUs=[0-9]'; then
		ENGINE_SKIP="slurmd -C cannot describe this node: $hw"
		return 1
	fi
	_slurm_write_conf "$d" "$node" "$user" "$hw" "$(_free_port)" "$(_free_port)"
	export SLURM_CONF=$d/slurm.conf
	_slurm_start_munge "$d" || return 1
	slurmctld -D -i -f "$SLURM_CONF" >"$d/log/slurmctld.out" 2>&1 &
	_slurm_pids+=($!)
	slurmd -D -f "$SLURM_CONF" -N "$node" >"$d/log/slurmd.out" 2>&1 &
	_slurm_pids+=($!)
	local i state=""
	for i in $(seq 150); do
		state=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -1)
		case $state in idle | mixed | allocated) return 0 ;; esac
		for p in "${_slurm_pids[@]}"; do
			if ! kill -0 "$p" 2>/dev/null; then
				ENGINE_SKIP="a Slurm daemon exited at start (slurmctld: $(_slurm_log_tail "$d/log/slurmctld.out"); slurmd: $(_slurm_log_tail "$d/log/slurmd.out"))"
				return 1
			fi
		done
		sleep 0.2
	done
	ENGINE_SKIP="the Slurm node did not become idle in 30 s (state '${state:-unknown}'; slurmd: $(_slurm_log_tail "$d/log/slurmd.log"))"
	return 1
}

slurm_stop() {
	[ -n "$_slurm_dir" ] || return 0
	# SIGTERM to the daemons this harness started (and only those), then
	# make sure of it.  `scontrol shutdown` took over 2 s to take them down
	# here; a test cluster has no state worth a graceful save.
	local p i
	for p in "${_slurm_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for i in $(seq 40); do
		local alive=0
		for p in "${_slurm_pids[@]}"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		[ "$alive" = 0 ] && break
		sleep 0.05
	done
	for p in "${_slurm_pids[@]}"; do
		kill -9 "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	_slurm_pids=()
	_slurm_dir=""
}

slurm_wait_job() {
	local id=$1 secs=$2 i
	for i in $(seq $((secs * 5))); do
		[ -z "$(squeue -h -j "$id" -o %i 2>/dev/null)" ] && return 0
		sleep 0.2
	done
	return 1
}

# The final state of a job, e.g. COMPLETED, FAILED, CANCELLED.
slurm_job_state() {
	scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1
}
