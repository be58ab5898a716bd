#!/usr/bin/env bash
# Runs one row of a bad-input table: the program must fail cleanly.
#
# Table rows (tests/drivers/bad_input_<program>.txt), fields separated by '|':
#     name | ranks | exit code | message fragment | arguments
# ranks: comma-separated MPI sizes (CMake makes one ctest entry per size). Arguments are split as
# the shell splits words (quotes group, nothing is expanded: the tables hold no $, *, ;, braces
# or backquote, and this script refuses a row that does); '{dir}' is replaced by a fresh empty folder
# of this run. The run passes when
#   - the exit code is the expected one (not a crash, not an MPI_Abort),
#   - the fragment appears exactly once in stdout + stderr (printed by one rank, not by every rank),
#   - no abort banner or backtrace is printed,
#   - the folder holds no new file afterwards (no partial output, no stray temporary).
# usage: bad_input.sh <table> <name> -- <launcher and program...>
# (Bash, not Python: the VM's Python takes 0.3 s to start, and the tables have ~480 rows.)
set -u
table=$1 name=$2
shift 2
[ "${1:-}" = "--" ] || { echo "usage: bad_input.sh <table> <name> -- <command...>" >&2; exit 2; }
shift
command=("$@")

row=""
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in ''|'#'*) continue ;; esac
  field=${line%%|*}
  field=${field//[[:space:]]/}
  if [ "$field" = "$name" ]; then row=$line; break; fi
done < "$table"
[ -n "$row" ] || { echo "row '$name' not in $table" >&2; exit 2; }

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
rest=${row#*|}        # ranks | code | fragment | arguments
rest=${rest#*|}       # code | fragment | arguments
code=$(trim "${rest%%|*}")
rest=${rest#*|}       # fragment | arguments
fragment=$(trim "${rest%%|*}")
arguments=$(trim "${rest#*|}")

folder=$(mktemp -d "${TMPDIR:-/tmp}/tensormg-bad-input-XXXXXX")
trap 'rm -rf "$folder"' EXIT
arguments=${arguments//\{dir\}/$folder}
case "$arguments" in
  *'$'*|*'`'*|*';'*|*'*'*|*'?'*|*'&'*|*'<'*|*'>'*|*'('*|*'\'*|*'~'*|*'{'*|*'}'*)
    echo "row '$name': arguments with shell syntax the runner does not take: $arguments" >&2; exit 2 ;;
esac
eval "args=($arguments)"  # quotes group words; the case above ruled out expansions

out=$("${command[@]}" "${args[@]}" 2>&1)
rc=$?

problems=()
[ "$rc" = "$code" ] || problems+=("exit code $rc, expected $code")
count=$(grep -o -F -- "$fragment" <<<"$out" | wc -l)
[ "$count" = 1 ] || problems+=("message fragment '$fragment' appears $count times, expected once")
for banner in MPI_ABORT MPI_Abort "terminate called" Backtrace "Segmentation fault"; do
  if grep -q -F -- "$banner" <<<"$out"; then problems+=("output shows '$banner'"); fi
done
left=$(ls -A "$folder")
[ -z "$left" ] || problems+=("files left behind: $(echo $left)")

printf 'command:'; printf ' %q' "${command[@]}" "${args[@]}"; echo
echo "$out"
for p in "${problems[@]+"${problems[@]}"}"; do echo "FAILED: $p"; done
[ ${#problems[@]} = 0 ]
