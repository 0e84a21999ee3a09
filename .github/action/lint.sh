#!/usr/bin/env bash
# The action's lint: runs the hooklens launcher of the action's own checkout on the inputs, which it reads
# from INPUT_* variables (action.yml passes them), so that it runs, and is tested, outside a runner too.
#   INPUT_PATHS         files and folders to lint, separated by spaces or new lines (default: .)
#   INPUT_FORMAT        the report printed to the log (default: github, annotations on the pull request)
#   INPUT_FAIL_ON       --fail-on: error, warning, info or never (default: warning)
#   INPUT_CONFIG        --config FILE, instead of each file's nearest .hooklens.yaml (optional)
#   INPUT_BASELINE      --baseline FILE: report only the findings it does not record (optional)
#   INPUT_VALUES        --values FILE for charts, one a line (optional)
#   INPUT_UPLOAD_SARIF  true to write a SARIF report, for code scanning (default: false)
#   INPUT_SARIF_FILE    where to write it (default: hooklens.sarif)
#   INPUT_SUMMARY       true to write a job summary (default: true)
# Appends a table of the findings to GITHUB_STEP_SUMMARY, sets the outputs findings, errors, warnings, infos,
# sarif-file and exit-code in GITHUB_OUTPUT, and exits with the lint's exit code (0, 1 at or above fail-on,
# 2 broken input or usage, 3 internal error; the highest of its runs).
set -euo pipefail
# Bash 5.2 reads '&' in a ${s//x/y} replacement as the matched text; older versions have no such option.
shopt -u patsub_replacement 2>/dev/null || true
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
hooklens="$here/../../hooklens"
# The summary is capped well below the runner's 1 MiB a step; the annotations and the SARIF report keep all.
max_rows=500

words() { tr -s ' \t\r\n' '\n\n\n\n' <<<"$1" | sed '/^$/d'; }

args=(--fail-on "${INPUT_FAIL_ON:-warning}")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
while IFS= read -r file; do
  args+=(--values "$file")
done < <(words "${INPUT_VALUES:-}")
paths=()
while IFS= read -r path; do
  paths+=("$path")
done < <(words "${INPUT_PATHS:-.}")
[ ${#paths[@]} -gt 0 ] || paths=(.)

work="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/hooklens-XXXXXX")"
trap 'rm -rf "$work"' EXIT
annotations="$work/annotations"

# The annotations are read back for the summary; another format for the log is a run of its own.
code=0
"$hooklens" lint "${args[@]}" --format github -o "$annotations" "${paths[@]}" || code=$?
format="${INPUT_FORMAT:-github}"
if [ "$format" = github ]; then
  [ -f "$annotations" ] && cat "$annotations"
else
  run=0
  "$hooklens" lint "${args[@]}" --format "$format" "${paths[@]}" || run=$?
  [ "$run" -le "$code" ] || code=$run
fi
sarif=""
if [ "${INPUT_UPLOAD_SARIF:-false}" = true ]; then
  sarif="${INPUT_SARIF_FILE:-hooklens.sarif}"
  run=0
  "$hooklens" lint "${args[@]}" --format sarif -o "$sarif" "${paths[@]}" || run=$?
  [ "$run" -le "$code" ] || code=$run
fi

# Workflow-command escapes, undone: properties escape ':' and ',' too; '%' goes last.
unescape() {
  local s="$1"
  s="${s//%0D/}"; s="${s//%0A/$'\n'}"; s="${s//%3A/:}"; s="${s//%2C/,}"; s="${s//%25/%}"
  printf '%s' "$s"
}
# A Markdown table cell: pipes escaped, HTML characters as entities, lines joined with <br>.
cell() {
  local s="$1"
  s="${s//&/&amp;}"; s="${s//</&lt;}"; s="${s//>/&gt;}"; s="${s//|/\\|}"; s="${s//$'\r'/}"; s="${s//$'\n'/<br>}"
  printf '%s' "$s"
}

errors=0 warnings=0 infos=0
rows="$work/rows"
: > "$rows"
if [ -f "$annotations" ]; then
  while IFS= read -r line; do
    [[ "$line" =~ ^::(error|warning|notice)\ ([^:]*)::(.*)$ ]] || continue
    kind="${BASH_REMATCH[1]}" props="${BASH_REMATCH[2]}" message="${BASH_REMATCH[3]}"
    case "$kind" in
      error) errors=$((errors + 1)); severity=error ;;
      warning) warnings=$((warnings + 1)); severity=warning ;;
      *) infos=$((infos + 1)); severity=info ;;
    esac
    if [ $((errors + warnings + infos)) -gt "$max_rows" ]; then
      continue
    fi
    file="" at="" col="" title=""
    IFS=, read -ra pairs <<<"$props"
    for pair in "${pairs[@]}"; do
      case "$pair" in
        file=*) file="$(unescape "${pair#file=}")" ;;
        line=*) at="${pair#line=}" ;;
        col=*) col="${pair#col=}" ;;
        title=*) title="$(unescape "${pair#title=}")" ;;
      esac
    done
    printf '| %s | %s | %s | %s |\n' "$(cell "$file:$at:$col")" "$(cell "$title")" "$severity" \
      "$(cell "$(unescape "$message")")" >> "$rows"
  done < "$annotations"
fi
findings=$((errors + warnings + infos))

if [ "${INPUT_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  plural() { if [ "$1" -eq 1 ]; then echo "$1 $2"; else echo "$1 $3"; fi; }
  {
    echo "## Hooklens"
    echo
    case "$code" in
      0) verdict="passed" ;;
      1) verdict="failed: findings at or above ${INPUT_FAIL_ON:-warning}" ;;
      *) verdict="failed with exit code $code: some input could not be linted, see the log" ;;
    esac
    echo "$(plural "$errors" error errors), $(plural "$warnings" warning warnings), $(plural "$infos" info infos);" \
      "$verdict."
    if [ "$findings" -gt 0 ]; then
      echo
      echo "| Location | Rule | Severity | Message |"
      echo "|---|---|---|---|"
      cat "$rows"
      if [ "$findings" -gt "$max_rows" ]; then
        echo
        echo "$((findings - max_rows)) more findings are in the annotations${sarif:+ and in the SARIF report}."
      fi
    fi
  } >> "$GITHUB_STEP_SUMMARY"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "findings=$findings"
    echo "errors=$errors"
    echo "warnings=$warnings"
    echo "infos=$infos"
    echo "sarif-file=$sarif"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit "$code"
