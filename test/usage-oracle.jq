# Independent oracle for test/usage.test.ts (jq 1.6): token usage of
# `wuu exec --json` streams, written from WIRE-FORMAT.md alone.
#   jq -n -R -c -f test/usage-oracle.jq FILE...
# Rules: input_tokens excludes cache (the four counts are kept as they come);
# last usage_updated per ROOT-thread turn (else turn_completed in/out); the
# root threads are those of thread_*/turn_started (child-thread turn ends
# and snapshots are not the main agent's); last report per subagent
# (agent_id); runs end at `result`, at a new session_configured or at the
# end of a file; a turn (thread_id+turn_id) or subagent (agent_id) seen
# several times counts once: the occurrence that ended, then the one whose
# run has a result, then the larger counts. Bad lines are skipped.
# Counts are [input, cache_creation, cache_read, output].
def tok: [(.input_tokens // 0), (.cache_creation_tokens // 0), (.cache_read_tokens // 0), (.output_tokens // 0)];
def sum4: reduce .[] as $t ([0,0,0,0]; [.[0]+$t[0], .[1]+$t[1], .[2]+$t[2], .[3]+$t[3]]);
def model($s; $th): ($s.tm[$th] // "") as $m | if $m != "" then $m elif $s.sm != "" then $s.sm else "unknown" end;
def flush($result):
  .occ += ([.turns | to_entries[] | .value as $v
            | {k: .key, kind: "turn", model: $v.model, ended: $v.ended, result: $result,
               tok: (if $v.snap != null then $v.snap elif $v.tc != null then [$v.tc[0], 0, 0, $v.tc[1]] else [0,0,0,0] end)}]
         + [.agents | to_entries[] | .value as $v
            | {k: .key, kind: "agent", model: $v.model, ended: ($v.status != "running" and $v.status != ""), result: $result, tok: $v.tok}])
  | .turns = {} | .agents = {} | .roots = {};
def rank: [(if .ended then 1 else 0 end), (if .result then 1 else 0 end), (.tok | add), .tok[0], .tok[3], .tok[1], .tok[2]];
def child($s; $th): ($s.roots | length) > 0 and $th != "" and ($s.roots[$th] == null);

reduce (inputs | input_filename as $f | (try fromjson catch null)
        | select(type == "object" and (.type | type) == "string") | . + {_f: $f}) as $e
  ({f: null, sm: "", tm: {}, turns: {}, agents: {}, roots: {}, occ: []};
   (if .f != $e._f then flush(false) | .f = $e._f | .sm = "" | .tm = {} else . end)
   | ($e.thread_id // "") as $th
   | if $e.type == "session_configured" then flush(false) | .sm = ($e.model // "") | .tm = {}
     elif ($e.type | startswith("thread_")) then .tm[$th] = (if ($e.model // "") != "" then $e.model else .sm end) | .roots[$th] = true
     elif $e.type == "result" then flush(true)
     elif ($e.type | test("^(turn_|usage_updated$)")) then
       (if $e.type == "turn_started" then .roots[$th] = true else . end)
       | if child(.; $th) then .
         else
           ($th + "/" + ($e.turn_id // "")) as $k
           | (if .turns[$k] == null then .turns[$k] = {snap: null, tc: null, ended: false, model: model(.; $th)} else . end)
           | if $e.type == "usage_updated" then .turns[$k].snap = ($e | tok)
             elif $e.type == "turn_completed" then .turns[$k].ended = true | .turns[$k].tc = [($e.input_tokens // 0), ($e.output_tokens // 0)]
             elif $e.type == "turn_failed" or $e.type == "turn_interrupted" then .turns[$k].ended = true
             else . end
         end
     elif ($e.type | startswith("subagent_")) then
       ($e.agent_id // "") as $k
       | (if .agents[$k] == null then .agents[$k] = {model: model(.; $th), status: ""} else . end)
       | .agents[$k].tok = ($e | tok)
       | .agents[$k].status = (if ($e.status // "") != "" then $e.status else .agents[$k].status end)
     else . end)
| flush(false)
| [.occ | group_by(.kind + "\u0000" + .k)[] | max_by(rank)] as $units
| {
    turns: ([$units[] | select(.kind == "turn")] | length),
    agents: ([$units[] | select(.kind == "agent")] | length),
    main: ([$units[] | select(.kind == "turn") | .tok] | sum4),
    subagents: ([$units[] | select(.kind == "agent") | .tok] | sum4),
    models: ([$units[] | select(.kind == "turn")] | group_by(.model) | map({key: .[0].model, value: (map(.tok) | sum4)}) | from_entries),
    units: ($units | map({key: (.kind + ":" + .k), value: .tok}) | from_entries)
  }
