#!/usr/bin/env bash
# The plain bash-and-grep hook that airlock is compared with: it blocks a
# PreToolUse call when the raw input matches one of nine phrases.
if grep -qiE 'git push|gh pr create|gh pr merge|railway deploy|curl -X POST|curl -X PUT|curl -X PATCH|curl -X DELETE|npm publish'; then
  echo "blocked: external action" >&2
  exit 2
fi
exit 0
