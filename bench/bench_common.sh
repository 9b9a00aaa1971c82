# Shared by bench/bench_nests.sh and bench/bench_nest_deps.sh (sourced, not run).

# The work directory: $KEEP when set (kept), else a temporary one removed at exit. Sets `work`.
bench_workdir() {
  if [ -n "${KEEP:-}" ]; then
    work=$KEEP
    mkdir -p "$work"
  else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
  fi
}

# timed SECONDS COMMAND...: runs COMMAND under GNU time and `timeout SECONDS`; sets t_sec (elapsed),
# t_mib (peak resident MiB) and t_rc (exit status; 124 when cut off).
timed() {
  local cut=$1
  shift
  /usr/bin/time -f '%e %M' -o "$work/time" timeout "$cut" "$@"
  t_rc=$?
  local line
  line=$(tail -n 1 "$work/time")
  t_sec=${line% *}
  t_mib=$(( ${line#* } / 1024 ))
}
