#!/usr/bin/env bash
# The bad-input runner (bad_input.sh) must pass a clean refusal and fail every other row of
# bad_input_runner.txt: the wrong exit code, a message printed twice or never, an abort banner, a
# file left behind, a row with shell syntax. A runner that passed everything would pass here never.
set -u
here=$(cd "$(dirname "$0")" && pwd)
status=0
check() {  # check <row> <expected runner exit: pass|fail>
  local out rc
  out=$(bash "$here/bad_input.sh" "$here/bad_input_runner.txt" "$1" -- bash "$here/bad_input_runner_program.sh" 2>&1)
  rc=$?
  if { [ "$2" = pass ] && [ $rc != 0 ]; } || { [ "$2" = fail ] && [ $rc = 0 ]; }; then
    echo "FAILED: row $1: the runner exited $rc, expected to $2"; echo "$out" | sed 's/^/    /'; status=1
  else
    echo "ok: row $1 ($2)"
  fi
}
check clean pass
check quoted_words pass
for row in wrong_exit exit_zero said_twice never_said abort_banner segfault partial_file shell_syntax; do check $row fail; done
exit $status
