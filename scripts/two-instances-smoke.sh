#!/usr/bin/env bash
# Two app instances on one SQLite file and one Redis, behind no balancer: a check by hand of SPEC §7.5
# (issue 19) until the multi-instance suite exists. Needs a build (`npx next build`) and Debian's
# redis-server. Starts redis-server, the fake model and two `next start`, checks, stops them all.
#   scripts/two-instances-smoke.sh        (ports: A 3901, B 3902, model 4094, Redis 6394; override PORT_*)
set -u
cd "$(dirname "$0")/.."
A=${PORT_A:-3901} B=${PORT_B:-3902} M=${PORT_MODEL:-4094} R=${PORT_REDIS:-6394}
S=$(mktemp -d /tmp/two-instances-XXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$S"; }
trap cleanup EXIT
mkdir -p "$S/data" "$S/redis"
redis-server --port "$R" --bind 127.0.0.1 --dir "$S/redis" --save '' --appendonly no --loglevel warning >"$S/redis.log" 2>&1 &
pids+=($!)
FAKE_OPENAI_PORT=$M node_modules/.bin/node e2e/fixtures/fake-openai.mjs >"$S/fake.log" 2>&1 &
pids+=($!)
export DATABASE_PATH=$S/data/app.db APP_URL=http://localhost:$A OPENAI_BASE_URL=http://127.0.0.1:$M/v1 \
  OPENAI_API_KEY=sk-test CHAT_MODEL=fake-model REDIS_URL=redis://127.0.0.1:$R NEXT_TELEMETRY_DISABLED=1
node_modules/.bin/node node_modules/next/dist/bin/next start -p "$A" >"$S/a.log" 2>&1 &
pids+=($!)
sleep 4 # A migrates the database first
node_modules/.bin/node node_modules/next/dist/bin/next start -p "$B" >"$S/b.log" 2>&1 &
pids+=($!)
for p in "$A" "$B"; do
  for _ in $(seq 1 120); do curl -sf "localhost:$p/api/health" >/dev/null && break; sleep 0.5; done
done

failed=0
check() { if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$2', want '$3'"; failed=1; fi; }
O="Origin: http://localhost:$A"
J='content-type: application/json'
body() { echo "{\"id\":\"$1\",\"message\":{\"id\":\"$1-1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"$2\"}]}}"; }
chat() { curl -s -o "$S/last" -w '%{http_code}' -b "$S/cookies" -H "$O" -H "$J" "localhost:$1/api/chat" -d "$(body "$2" "$3")"; }
running() { curl -s -b "$S/cookies" "localhost:$1/api/conversations/$2" | grep -o '"running":[a-z]*'; }

curl -s -o /dev/null -c "$S/cookies" -H "$O" -H "$J" "localhost:$A/api/auth/sign-up/email" \
  -d '{"email":"admin@example.com","password":"a-long-password-1","name":"Admin"}'

ID=two-instances-$(date +%s)
curl -s -N -b "$S/cookies" -H "$O" -H "$J" "localhost:$A/api/chat" -d "$(body "$ID" 'Two instances [[words:200]] [[slow:50]]')" >"$S/own" &
own=$!
sleep 2
check 'B sees the turn running on A' "$(running "$B" "$ID")" '"running":true'
check 'B refuses a second turn there (409)' "$(chat "$B" "$ID" 'me too')" 409
curl -s -N -b "$S/cookies" "localhost:$B/api/chat/$ID/stream" >"$S/replay" &
replay=$!
sleep 2
check 'Stop on B stops the turn on A' "$(curl -s -b "$S/cookies" -H "$O" -X POST "localhost:$B/api/chat/$ID/stop")" '{"stopped":true}'
wait $own $replay
check 'B replayed the whole turn from its start' "$(cmp -s "$S/own" "$S/replay" && echo same)" same
check 'the answer ended interrupted' "$(grep -c '"interrupted":true' "$S/replay")" 1
check 'nothing runs after the stop' "$(running "$B" "$ID")" '"running":false'

# Chat requests this minute so far: the turn on A, the refused one on B. Then:
check 'B: 3rd chat request of the minute (warms its settings cache)' "$(chat "$B" "$ID-w1" hi)" 200
check 'the admin lowers the chat rate to 5 on A' "$(curl -s -o /dev/null -w '%{http_code}' -b "$S/cookies" -H "$O" -H "$J" -X PATCH "localhost:$A/api/admin/settings" -d '{"chatRequestsPerMinute":5}')" 200
sleep 0.3
check 'A: 4th' "$(chat "$A" "$ID-w2" hi)" 200
check 'B: 5th' "$(chat "$B" "$ID-w3" hi)" 200
check 'A: 6th is over the limit' "$(chat "$A" "$ID-w4" hi)" 429
check 'B: so is a 7th (B counts A'"'"'s requests and applied the new limit)' "$(chat "$B" "$ID-w5" hi)" 429
exit $failed
