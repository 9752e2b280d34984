#!/usr/bin/env bash
# Proof that the SeaTunnel Zeta engine assembled by tools/seatunnel/install.sh runs here, and a transcript of the
# facts the runtime depends on (REST shapes, statuses, checkpoint/restore behaviour, failure reporting, timings).
#
# Separated mode on 127.0.0.1: one master (REST enabled) + one worker (no REST, fixed 2 slots), a unique cluster
# name, free ports, phone-home off, console logging, 512m heap each. All configs are generated into a temp dir.
#
# Usage: tools/seatunnel/smoke.sh [--keep]     (--keep leaves the temp dir with configs, logs and checkpoints)
# Env:   ZETA_WAIT_BEFORE_JOIN=<s>  sets hazelcast.wait.seconds.before.join on the master (Hazelcast default 5)
# Exit:  0 all checks passed; 1 a check failed; 3 no engine can be obtained here (from install.sh).
# The last line is "N passed, M failed".
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
keep=false
[[ ${1:-} == --keep ]] && keep=true

H="$("$here/install.sh")"
rc=$?
if ((rc == 3)); then
  echo "smoke: SKIPPED - no usable SeaTunnel engine can be obtained on this machine (see above)"
  exit 3
fi
((rc == 0)) || { echo "smoke: install.sh failed (exit $rc)"; exit 1; }

D="$(mktemp -d /tmp/zeta-smoke.XXXXXX)"
pass=0
fail=0
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  if $keep; then echo "kept $D"; else rm -rf "$D"; fi
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
say() { printf '%s\n' "$*" | tee -a "$D/transcript.txt"; }
ok() { pass=$((pass + 1)); say "  PASS $*"; }
bad() { fail=$((fail + 1)); say "  FAIL $*"; }
check() { # description, command...
  local d=$1; shift
  if "$@"; then ok "$d"; else bad "$d"; fi
}
expect() { # <exit status of a test> description
  if (($1 == 0)); then ok "$2"; else bad "$2"; fi
}
# jget '<JS expression over d>' <<<json   (prints strings raw, everything else as JSON)
jget() { node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{let d;try{d=JSON.parse(s)}catch(e){console.log("<not json>");return}
  const v=(new Function("d","return ("+process.argv[1]+")"))(d);console.log(typeof v==="string"?v:JSON.stringify(v))})' "$1"; }
free_ports() { node -e 'const net=require("net");const n=+process.argv[1];const ss=[];let out=[];(async()=>{for(let i=0;i<n;i++){const s=net.createServer();ss.push(s);await new Promise(r=>s.listen(0,"127.0.0.1",r));out.push(s.address().port)}ss.forEach(s=>s.close());console.log(out.join(" "))})()' "$1"; }

# ------------------------------------------------------------------------------------------------ config rendering
# render <dir> <cluster-name> <master-port> <worker-port> <checkpoint-namespace> [worker member-list entry]
render() {
  local c=$1 name=$2 hm=$3 hw=$4 ns=$5 wml=${6:-127.0.0.1:$3}
  mkdir -p "$c"
  # engine config, master: slots are ignored on the master in separated mode; backup-count 0 (one data member).
  cat >"$c/seatunnel-master.yaml" <<EOF
seatunnel:
  engine:
    backup-count: 0
    print-execution-info-interval: 3600
    print-job-metrics-info-interval: 3600
    history-job-expire-minutes: 60
    slot-service:
      dynamic-slot: false
      slot-num: 2
    checkpoint:
      interval: 10000
      timeout: 30000
      storage:
        type: hdfs
        max-retained: 3
        plugin-config:
          storage.type: hdfs
          fs.defaultFS: "file:///"
          namespace: "$ns"
    telemetry:
      metric:
        enabled: false
EOF
  cp "$c/seatunnel-master.yaml" "$c/seatunnel-worker.yaml"
  local props
  props="  properties:
    hazelcast.phone.home.enabled: false
    hazelcast.socket.bind.any: false
    hazelcast.logging.type: log4j2
    hazelcast.invocation.max.retry.count: 20
    hazelcast.tcp.join.port.try.count: 30
    hazelcast.operation.generic.thread.count: 50
    hazelcast.heartbeat.interval.seconds: 2
    hazelcast.max.no.heartbeat.seconds: 30"
  cat >"$c/hazelcast-master.yaml" <<EOF
hazelcast:
  cluster-name: $name
  network:
    public-address: 127.0.0.1:$hm
    port:
      port: $hm
      auto-increment: false
    interfaces:
      enabled: true
      interfaces: [127.0.0.1]
    join:
      multicast:
        enabled: false
      tcp-ip:
        enabled: true
        member-list: [127.0.0.1:$hm]
    rest-api:
      enabled: true
      endpoint-groups:
        CLUSTER_WRITE:
          enabled: true
        DATA:
          enabled: true
$props
EOF
  [[ -n ${ZETA_WAIT_BEFORE_JOIN:-} ]] && echo "    hazelcast.wait.seconds.before.join: $ZETA_WAIT_BEFORE_JOIN" >>"$c/hazelcast-master.yaml"
  cat >"$c/hazelcast-worker.yaml" <<EOF
hazelcast:
  cluster-name: $name
  network:
    public-address: 127.0.0.1:$hw
    port:
      port: $hw
      auto-increment: false
    interfaces:
      enabled: true
      interfaces: [127.0.0.1]
    join:
      multicast:
        enabled: false
      tcp-ip:
        enabled: true
        member-list: [$wml]
$props
EOF
}

JVM_FLAGS=(-Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError
  --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED)

# start_node <role> <config dir> <log file>  -> pid in $node_pid
start_node() {
  local role=$1 c=$2 log=$3
  env HZ_PHONE_HOME_ENABLED=false SMOKE_PLACEHOLDER=from-master-env ${node_env:-} \
    java "${JVM_FLAGS[@]}" \
    -DSEATUNNEL_HOME="$H" -Dseatunnel.home="$H" \
    -Dseatunnel.config="$c/seatunnel-$role.yaml" -Dhazelcast.config="$c/hazelcast-$role.yaml" \
    -Dlog4j2.configurationFile="$H/config/log4j2.properties" -Dhazelcast.logging.type=log4j2 \
    -cp "$H/starter/*:$H/lib/*" org.seatunnelapp.zeta.ZetaNode "$role" >"$log" 2>&1 &
  node_pid=$!
  pids+=("$node_pid")
}

# ------------------------------------------------------------------------------------------------ REST helpers
B=""
http() { # method path [body-file] -> sets $code and $body
  local m=$1 p=$2 f=${3:-}
  local out
  if [[ -n $f ]]; then
    out="$(curl -s -m 30 -w '\n%{http_code}' -X "$m" -H 'Content-Type: application/json' --data-binary "@$f" "$B$p")"
  else
    out="$(curl -s -m 30 -w '\n%{http_code}' -X "$m" "$B$p")"
  fi
  code="${out##*$'\n'}"
  body="${out%$'\n'*}"
}
status_of() { http GET "/job-info/$1"; jget 'd.jobStatus||""' <<<"$body"; }
wait_status() { # jobId seconds statuses-regex -> prints the final status
  local id=$1 secs=$2 re=$3 s="" t0
  t0=$(now)
  while :; do
    s="$(status_of "$id")"
    [[ $s =~ ^($re)$ ]] && break
    awk -v a="$t0" -v b="$(now)" -v m="$secs" 'BEGIN{exit !(b-a<m)}' || break
    sleep 0.5
  done
  echo "$s"
}
ckpt_files() { find "$1" -name '*.ser' 2>/dev/null | sort; }
short() { head -c "${2:-600}" <<<"$1"; echo; }

job_json() { # mode name extra-env-json source-extra-json sinks-json  -> file path
  local f="$D/job-$RANDOM$RANDOM.json"
  cat >"$f" <<EOF
{"env": $(node -e 'console.log(JSON.stringify(Object.assign({"job.mode":process.argv[1],"job.name":process.argv[2],"parallelism":1,"job.retry.times":0},JSON.parse(process.argv[3]))))' "$1" "$2" "$3"),
 "source": [$(node -e 'console.log(JSON.stringify(Object.assign({"plugin_name":"FakeSource","result_table_name":"fake","row.num":16,"schema":{"fields":{"name":"string","age":"int"}}},JSON.parse(process.argv[1]))))' "$4")],
 "transform": [],
 "sink": $5}
EOF
  echo "$f"
}
CONSOLE='{"plugin_name":"Console","source_table_name":"fake"}'
assert_rows() { echo "{\"plugin_name\":\"Assert\",\"source_table_name\":\"fake\",\"rules\":{\"row_rules\":[{\"rule_type\":\"MAX_ROW\",\"rule_value\":$1},{\"rule_type\":\"MIN_ROW\",\"rule_value\":$1}]}}"; }

# ================================================================================================ cluster A
read -r HM HW HM2 HW2 <<<"$(free_ports 4)"
NS="$D/checkpoints/"
say "== SeaTunnel Zeta smoke: home $H"
say "   java: $(java -version 2>&1 | head -1)"
say "   temp dir $D; cluster A ports master=$HM worker=$HW; checkpoint namespace $NS"
render "$D/conf-a" "zeta-smoke-a-$$" "$HM" "$HW" "$NS"
B="http://127.0.0.1:$HM/hazelcast/rest/maps"

say "== 1. cold start (master + worker started together)"
t0=$(now)
start_node master "$D/conf-a" "$D/master-a.log"; MA=$node_pid
start_node worker "$D/conf-a" "$D/worker-a.log"; WA=$node_pid
t_rest=""; t_reg=""
while :; do
  http GET /overview
  if [[ $code == 200 ]]; then
    [[ -z $t_rest ]] && t_rest=$(since "$t0") && say "   REST answers after ${t_rest}s: $body"
    if [[ $(jget 'd.workers' <<<"$body") == 1 ]]; then t_reg=$(since "$t0"); break; fi
  fi
  kill -0 "$MA" 2>/dev/null || { bad "master died during start"; tail -30 "$D/master-a.log"; exit 1; }
  awk -v a="$t0" -v b="$(now)" 'BEGIN{exit !(b-a<120)}' || break
  sleep 0.25
done
say "   worker registered after ${t_reg:-never}s: $body"
check "overview shows workers=1 and totalSlot=2 (fixed slots)" test "$(jget '[d.workers,d.totalSlot,d.unassignedSlot].join()' <<<"$body")" = "1,2,2"
check "overview reports projectVersion 2.3.8" test "$(jget 'd.projectVersion' <<<"$body")" = "2.3.8"
# listening TCP sockets of a pid; Java shows IPv4 loopback as [::ffff:127.0.0.1] (IPv4-mapped) - normalized here
listen_of() { ss -ltnpH 2>/dev/null | grep "pid=$1," | awk '{print $4}' | sed 's/^\[::ffff:\(.*\)\]/\1/' | sort -u | tr '\n' ' '; }
say "   listening sockets: master $(listen_of "$MA")/ worker $(listen_of "$WA")"
[[ "$(listen_of "$MA")" == "127.0.0.1:$HM " && "$(listen_of "$WA")" == "127.0.0.1:$HW " ]]
expect $? "each node listens only on its member port on 127.0.0.1 (REST shares the master's member port)"
wcode=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HW/hazelcast/rest/maps/overview")
say "   REST on the worker's port (rest-api disabled there) -> HTTP $wcode"
[[ $wcode != 200 ]]; expect $? "the worker serves no REST"
say "   RSS after start: master $(($(awk '/VmRSS/{print $2}' /proc/$MA/status) / 1024)) MiB, worker $(($(awk '/VmRSS/{print $2}' /proc/$WA/status) / 1024)) MiB"

say "== 2. batch FakeSource -> Console + Assert"
f=$(job_json BATCH smoke-batch '{}' '{}' "[$CONSOLE,$(assert_rows 16)]")
t0=$(now)
http POST /submit-job "$f"
say "   POST /submit-job -> HTTP $code $body"
JB=$(jget 'd.jobId' <<<"$body")
[[ $JB =~ ^[0-9]+$ && $body == *'"jobId":"'* ]]; expect $? "submit-job returns a jobId (as a JSON string)"
st=$(wait_status "$JB" 60 'FINISHED|FAILED|CANCELED')
say "   terminal status $st after $(since "$t0")s (submit -> terminal)"
check "batch job FINISHED" test "$st" = FINISHED
http GET "/job-info/$JB"
say "   GET /job-info/$JB (finished) keys: $(jget 'Object.keys(d).join(",")' <<<"$body")"
say "   metrics: $(jget 'd.metrics' <<<"$body")"
check "SourceReceivedCount = 16" test "$(jget 'd.metrics.SourceReceivedCount' <<<"$body")" = 16
check "SinkWriteCount = 32 (two sinks x 16)" test "$(jget 'd.metrics.SinkWriteCount' <<<"$body")" = 32
check "console rows logged by the worker" grep -q 'ConsoleSinkWriter.*rowIndex=16' "$D/worker-a.log"
http GET /finished-jobs/FINISHED
say "   GET /finished-jobs/FINISHED -> HTTP $code, $(jget 'd.length' <<<"$body") entries"

say "== 3. failures"
f=$(job_json BATCH smoke-assert-fails '{}' '{}' "[$(assert_rows 10)]")
http POST /submit-job "$f"
JF=$(jget 'd.jobId' <<<"$body")
st=$(wait_status "$JF" 60 'FINISHED|FAILED|CANCELED')
http GET "/job-info/$JF"
msg=$(jget '(d.errorMsg||"").split("\n")[0]' <<<"$body")
say "   assert failure: status $st; errorMsg first line: $msg"
[[ $st == FAILED && $msg == *ASSERT-01* ]]; expect $? "a job whose Assert rule fails ends FAILED with the connector error in errorMsg"

f=$(job_json BATCH smoke-bad-option '{}' '{"row.num":"not-a-number"}' "[$CONSOLE]")
http POST "/submit-job?jobId=4711" "$f"
say "   bad connector option -> HTTP $code $body"
[[ $code == 500 && $(jget 'd.status' <<<"$body") == fail ]]; expect $? "bad option is rejected at submit: HTTP 500 {status:fail,message}"
http GET /job-info/4711
say "   GET /job-info/4711 (never created) -> HTTP $code $body"
check "job-info of an unknown id echoes only the id" test "$body" = '{"jobId":"4711"}'

f=$(job_json BATCH smoke-bad-plugin '{}' '{"plugin_name":"NoSuchSource"}' "[$CONSOLE]")
http POST /submit-job "$f"
say "   unknown plugin -> HTTP $code $body"
echo 'env { job.mode = "BATCH" }' >"$D/job.hocon"
http POST "/submit-job?format=hocon" "$D/job.hocon"
say "   HOCON body with format=hocon -> HTTP $code $body"
check "format=hocon is not supported (body must be JSON): HTTP 400" test "$code" = 400
f=$(job_json BATCH '${SMOKE_PLACEHOLDER}' '{}' '{}' "[$CONSOLE]")
http POST /submit-job "$f"
say "   job.name \"\${SMOKE_PLACEHOLDER}\" (set in the master's environment) -> $body"
check "\${ENV} placeholders are NOT resolved in REST submissions" test "$(jget 'd.jobName' <<<"$body")" = '${SMOKE_PLACEHOLDER}'
wait_status "$(jget 'd.jobId' <<<"$body")" 60 'FINISHED|FAILED|CANCELED' >/dev/null
http POST "/submit-job?jobId=$JB" "$(job_json BATCH dup '{}' '{}' "[$CONSOLE]")"
say "   re-using a finished job's id without isStartWithSavePoint -> HTTP $code $(jget '(d.message||"").split("\n")[0]' <<<"$body")"

say "== 4. streaming: checkpoints, cancel, savepoint, restore"
SJ='{"checkpoint.interval":2000}'
SSRC='{"row.num":5,"split.num":1,"split.read-interval":500}'
f_stream=$(job_json STREAMING smoke-stream "$SJ" "$SSRC" "[$CONSOLE]")
S1=7001
t0=$(now)
http POST "/submit-job?jobId=$S1&jobName=stream-one" "$f_stream"
say "   submit streaming $S1 -> $body"
st=$(wait_status $S1 60 RUNNING)
say "   $S1 $st after $(since "$t0")s"
for _ in $(seq 60); do (($(ckpt_files "$NS$S1" | wc -l) >= 2)) && break; sleep 0.5; done
say "   checkpoint files: $(ckpt_files "$NS$S1" | sed "s|$NS||" | tr '\n' ' ')"
check "streaming job writes checkpoints to <namespace>/<jobId>/*.ser" test "$(ckpt_files "$NS$S1" | wc -l)" -ge 2
http GET "/running-job/$S1"
say "   GET /running-job/$S1 keys: $(jget 'Object.keys(d).join(",")' <<<"$body")"
http GET /running-jobs
say "   GET /running-jobs -> $(jget 'd.map(j=>j.jobId+":"+j.jobStatus).join(",")' <<<"$body")"
t0=$(now)
echo "{\"jobId\":$S1,\"isStopWithSavePoint\":false}" >"$D/stop.json"
http POST /stop-job "$D/stop.json"
say "   POST /stop-job {jobId:$S1,isStopWithSavePoint:false} -> HTTP $code $body"
st=$(wait_status $S1 60 'CANCELED|FAILED|FINISHED')
say "   $S1 $st after $(since "$t0")s"
check "stop-job -> CANCELED" test "$st" = CANCELED
check "cancel deletes the job's checkpoints" test ! -e "$NS$S1"

S2=7002
http POST "/submit-job?jobId=$S2" "$f_stream"
wait_status $S2 60 RUNNING >/dev/null
for _ in $(seq 60); do (($(ckpt_files "$NS$S2" | wc -l) >= 2)) && break; sleep 0.5; done
t0=$(now)
echo "{\"jobId\":$S2,\"isStopWithSavePoint\":true}" >"$D/stop.json"
http POST /stop-job "$D/stop.json"
st=$(wait_status $S2 60 'SAVEPOINT_DONE|CANCELED|FAILED|FINISHED')
say "   stop-job with savepoint -> $st after $(since "$t0")s; files: $(ckpt_files "$NS$S2" | sed "s|$NS||" | tr '\n' ' ')"
[[ $st == SAVEPOINT_DONE && -d $NS$S2 ]]; expect $? "stop with savepoint -> SAVEPOINT_DONE, checkpoints kept"
last_id=$(ckpt_files "$NS$S2" | sed 's/.*-\([0-9]*\)\.ser$/\1/' | sort -n | tail -1)
http POST "/submit-job?jobId=$S2&isStartWithSavePoint=true" "$f_stream"
say "   resubmit $S2 with isStartWithSavePoint=true -> HTTP $code $body"
st=$(wait_status $S2 60 RUNNING)
sleep 1
line=$(grep -a "start with savePoint on checkPointId" "$D/master-a.log" | tail -1)
say "   master log: ${line##*] }"
[[ $st == RUNNING && $line == *"checkPointId($last_id)"* ]]; expect $? "same job id + isStartWithSavePoint=true restores from the last checkpoint ($last_id)"
echo "{\"jobId\":$S2}" >"$D/stop.json"
http POST /stop-job "$D/stop.json"
wait_status $S2 60 'CANCELED' >/dev/null

S3=7003
http POST "/submit-job?jobId=$S3&isStartWithSavePoint=true" "$f_stream"
st=$(wait_status $S3 60 'RUNNING|FAILED')
line=$(grep -a "No checkpoint found for job, job id is: $S3" "$D/master-a.log" | tail -1)
say "   isStartWithSavePoint=true for a job id without checkpoints -> $st; master log: ${line##*] }"
[[ $st == RUNNING && -n $line ]]; expect $? "restore without a checkpoint silently starts fresh (RUNNING)"
echo "{\"jobId\":$S3}" >"$D/stop.json"
http POST /stop-job "$D/stop.json"
wait_status $S3 60 'CANCELED' >/dev/null

say "== 5. worker killed mid-job"
S4=7004
http POST "/submit-job?jobId=$S4" "$f_stream"
wait_status $S4 60 RUNNING >/dev/null
for _ in $(seq 60); do (($(ckpt_files "$NS$S4" | wc -l) >= 1)) && break; sleep 0.5; done
t0=$(now)
{ kill -9 "$WA"; wait "$WA"; } 2>/dev/null
st=$(wait_status $S4 60 'FAILED|CANCELED|FINISHED')
t_fail=$(since "$t0")
http GET "/job-info/$S4"
msg=$(jget '(d.errorMsg||"").split("\n")[0]' <<<"$body")
say "   kill -9 worker -> $S4 $st after ${t_fail}s; errorMsg: $msg"
[[ $st == FAILED && $msg == *offline* ]]; expect $? "worker loss -> job FAILED with 'deployed node(...) offline'"
http GET /overview
say "   overview after worker loss: $body"
check "overview workers=0 after worker loss" test "$(jget 'd.workers' <<<"$body")" = 0
check "a FAILED job keeps its checkpoints" test "$(ckpt_files "$NS$S4" | wc -l)" -ge 1

say "== 6. master stopped (SIGTERM), worker left alone"
start_node worker "$D/conf-a" "$D/worker-a2.log"; WA2=$node_pid
for _ in $(seq 120); do http GET /overview; [[ $(jget 'd.workers' <<<"$body") == 1 ]] && break; sleep 0.25; done
t0=$(now)
kill -TERM "$MA"
wait "$MA"
mrc=$?
say "   master exit code after SIGTERM: $mrc (took $(since "$t0")s)"
t0=$(now)
for _ in $(seq 120); do kill -0 "$WA2" 2>/dev/null || break; sleep 0.25; done
if kill -0 "$WA2" 2>/dev/null; then
  say "   worker still running 30 s after the master left; stopping it with SIGTERM"
  kill -TERM "$WA2"
  wait "$WA2"
  say "   worker exit code after SIGTERM: $?"
else
  wait "$WA2"
  wrc=$?
  say "   worker exited by itself $(since "$t0")s after the master left, exit code $wrc"
fi

say "== 7. new cluster B (fresh master, same checkpoint namespace): restore the failed job $S4"
# the worker's YAML member list points nowhere; ST_DOCKER_MEMBER_LIST supplies the master instead
render "$D/conf-b" "zeta-smoke-b-$$" "$HM2" "$HW2" "$NS" "127.0.0.1:9"
B="http://127.0.0.1:$HM2/hazelcast/rest/maps"
t0=$(now)
start_node master "$D/conf-b" "$D/master-b.log"; MB=$node_pid
node_env="ST_DOCKER_MEMBER_LIST=127.0.0.1:$HM2" start_node worker "$D/conf-b" "$D/worker-b.log"; WB=$node_pid
for _ in $(seq 480); do http GET /overview; [[ $code == 200 && $(jget 'd.workers' <<<"$body") == 1 ]] && break; sleep 0.25; done
say "   cluster B ready after $(since "$t0")s"
[[ $(jget 'd.workers' <<<"$body") == 1 ]]; expect $? "env ST_DOCKER_MEMBER_LIST replaces the worker's tcp-ip member-list"
last_id=$(ckpt_files "$NS$S4" | sed 's/.*-\([0-9]*\)\.ser$/\1/' | sort -n | tail -1)
http POST "/submit-job?jobId=$S4&isStartWithSavePoint=true" "$f_stream"
st=$(wait_status $S4 60 RUNNING)
sleep 1
line=$(grep -a "start with savePoint on checkPointId" "$D/master-b.log" | tail -1)
say "   resubmit $S4 (isStartWithSavePoint=true) on cluster B -> $st; master log: ${line##*] }"
[[ $st == RUNNING && $line == *"checkPointId($last_id)"* ]]; expect $? "a new cluster restores a failed job from its latest checkpoint ($last_id) under the same job id"
echo "{\"jobId\":$S4}" >"$D/stop.json"
http POST /stop-job "$D/stop.json"
wait_status $S4 60 'CANCELED' >/dev/null
kill -TERM "$WB" "$MB"
wait "$WB" "$MB"

say "== summary"
say "$pass passed, $fail failed"
((fail == 0))
