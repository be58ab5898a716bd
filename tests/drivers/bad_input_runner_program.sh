#!/usr/bin/env bash
# A stand-in program for the bad-input runner's own test: --say TEXT (repeatable) prints TEXT,
# --times N prints each N times, --write FILE creates FILE, --exit N exits with N.
code=0 times=1 said=() file=""
while [ $# -gt 0 ]; do
  case "$1" in
    --exit) code=$2; shift 2 ;;
    --say) said+=("$2"); shift 2 ;;
    --times) times=$2; shift 2 ;;
    --write) file=$2; shift 2 ;;
    *) echo "bad_input_runner_program: unknown argument $1" >&2; exit 99 ;;
  esac
done
for text in "${said[@]+"${said[@]}"}"; do
  for ((i = 0; i < times; ++i)); do echo "$text" >&2; done
done
[ -z "$file" ] || : > "$file"
exit "$code"
