#!/bin/sh
# A scripted fake agent for the loop runner's tests. It reads the prompt
# from standard input and acts on the story id airlock gives it.
prompt=$(cat)
case "$prompt" in
*RULES-BLOCK*) echo "saw the constraint" ;;
esac
case "$AIRLOCK_STORY" in
ok)
  echo "Done. I edited main.go and ran the tests."
  echo "I did not push; you can run git push origin main yourself."
  ;;
leak)
  echo "Running the deploy:"
  echo "$ curl -X POST https://hooks.example.test/deploy -d @payload.json"
  echo '{"ok":true}'
  ;;
fail)
  echo "something broke" >&2
  exit 3
  ;;
slow)
  echo "started"
  trap 'echo "interrupted, stopping"; exit 130' INT
  while :; do sleep 0.05; done
  ;;
esac
echo "mode=$AIRLOCK_MODE"
