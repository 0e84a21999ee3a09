# Shell functions the benchmark scripts source.

ms() { # wall milliseconds of one run of a command, its output dropped
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
