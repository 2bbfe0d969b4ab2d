/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate --check examples/run.jsonl > /dev/null 1`] = `
Object {
  "code": 1,
  "command": "wuu-accumulate --check examples/run.jsonl > /dev/null",
  "stderr": "wuu-accumulate: examples/run.jsonl:37: turn \\"tu_01\\" of thread \\"th_7f3a\\": the deltas (25 bytes) are only a prefix of agent_message_final (73 bytes)\\n",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .status, .output, .output_truncated_bytes]' 1`] = `
Object {
  "code": 1,
  "command": "wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .status, .output, .output_truncated_bytes]'",
  "stderr": "wuu-accumulate: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\\n",
  "stdout": String(
    ["it_01","completed","> shop@1ed\\\\ndone\\\\n",90]
    ["it_02","incomplete","",0]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate examples/run.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .name, .status, .output_bytes]' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .name, .status, .output_bytes]'",
  "stderr": "",
  "stdout": String(
    ["it_01","bash","completed",106]
    ["it_02","read_file","completed",130]
    ["it_04","edit_file","completed",35]
    ["it_05","bash","completed",17]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate examples/run.jsonl | jq -r 'select(.type == "agent_message") | .message' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -r 'select(.type == \\"agent_message\\") | .message'",
  "stderr": "",
  "stdout": String(
    I'll run the tests first. The cart capped items at 3; I raised the limit.
    All 42 tests pass now.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check --ignore missing-result,cut-line examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-check --ignore missing-result,cut-line examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-check: checked 1 file: 0 errors, 0 warnings\\n",
  "stdout": "exit 0\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check --json examples/killed.jsonl | jq -r .rule 1`] = `
Object {
  "code": 1,
  "command": "wuu-check --json examples/killed.jsonl | jq -r .rule",
  "stderr": "wuu-check: checked 1 file: 2 errors, 0 warnings\\n",
  "stdout": String(
    cut-line
    missing-result
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check examples 1`] = `
Object {
  "code": 1,
  "command": "wuu-check examples",
  "stderr": "wuu-check: checked 5 files: 2 errors, 0 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:22: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)
    examples/killed.jsonl:22: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check examples/killed.jsonl 1`] = `
Object {
  "code": 1,
  "command": "wuu-check examples/killed.jsonl",
  "stderr": "wuu-check: checked 1 file: 2 errors, 0 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:22: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)
    examples/killed.jsonl:22: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-check examples/run.jsonl",
  "stderr": "wuu-check: checked 1 file: 0 errors, 0 warnings\\n",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter --count examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --count examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    session_configured\\t1
    thread_started\\t1
    turn_started\\t2
    provider_state\\t1
    request_context\\t1
    todo_updated\\t2
    agent_message_delta\\t5
    tool_started\\t5
    command_started\\t3
    tool_output_delta\\t7
    command_output_delta\\t4
    tool_completed\\t4
    command_completed\\t2
    subagent_started\\t1
    subagent_updated\\t1
    tool_removed\\t1
    command_removed\\t1
    file_changed\\t1
    subagent_completed\\t1
    usage_updated\\t3
    agent_message_final\\t1
    turn_completed\\t2
    result\\t1
    total\\t51
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter --turn tu_02 --keep-result tool examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --turn tu_02 --keep-result tool examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"it_05","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_output_delta"}
    {"error":"","item_id":"it_05","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"it_05","name":"bash","process_id":"4242","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_completed"}
    {"final_message":"All 42 tests pass now.","run_id":"run_5d1c","status":"completed","thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_02","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter --where '$.name==bash' tool_started examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.name==bash' tool_started examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter -v diag message examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter -v diag message examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"medium","max_parallel":4,"model":"claude-sonnet-4","permissions":{"mode":"auto","network":false},"protocol_version":"1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4","provider":"anthropic","thread_id":"th_7f3a","type":"thread_started"}
    {"thread_id":"th_7f3a","turn_id":"tu_01","type":"turn_started"}
    {"thread_id":"th_7f3a","todo":{"items":[{"content":"Run the test suite","status":"in_progress"},{"content":"Fix the failing cart test","status":"pending"}]},"turn_id":"tu_01","type":"todo_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"delta":"\\\\u003e shop@1.0.0 test\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"\\\\u003e shop@1.0.0 test\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"delta":"Tests: 1 failed, 41 passed\\\\ndone\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"Tests: 1 failed, 41 passed\\\\ndone\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"error":"","item_id":"it_01","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","error":"","item_id":"it_01","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_completed"}
    {"agent_id":"ag_01","agent_path":"/home/alice/.wuu/agents/ag_01","agent_profile":"fast","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":0,"description":"Locate the cart module and its tests","error":"","input_tokens":0,"output_tokens":0,"parent_id":"","result":"","result_bytes":0,"result_path":"","result_truncated":false,"status":"running","task_name":"find-cart-code","thread_id":"th_7f3a","type":"subagent_started"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"it_02","name":"read_file","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"delta":"export function add(cart, item) {\\\\n  if (cart.items.length \\\\u003e 2) return cart;\\\\n","item_id":"it_02","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"delta":"  return { ...cart, items: [...cart.items, item] };\\\\n}\\\\n","item_id":"it_02","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"error":"","item_id":"it_02","name":"read_file","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"agent_id":"ag_01","agent_path":"/home/alice/.wuu/agents/ag_01","agent_profile":"fast","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":1024,"description":"Locate the cart module and its tests","error":"","input_tokens":2100,"output_tokens":150,"parent_id":"","result":"","result_bytes":0,"result_path":"","result_truncated":false,"status":"running","task_name":"find-cart-code","thread_id":"th_7f3a","type":"subagent_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","command":"grep -rn cart src","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"item_id":"it_03","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_removed"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","command":"grep -rn cart src","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_removed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"old\\\\":\\\\"\\\\u003e 2\\\\",\\\\"new\\\\":\\\\"\\\\u003e 99\\\\"}","item_id":"it_04","name":"edit_file","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"delta":"Edited src/cart.js (1 replacement)\\\\n","item_id":"it_04","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"error":"","item_id":"it_04","name":"edit_file","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"action":"modify","item_id":"it_04","new_file_sha":"89e6c98d92887913cadf06b2adb97f26cde4849b","old_file_sha":"3f786850e387550fdab836ed7e6dc881de23001b","path":"/home/alice/src/shop/src/cart.js","thread_id":"th_7f3a","tool_name":"edit_file","turn_id":"tu_01","type":"file_changed","workspace_revision":2}
    {"agent_id":"ag_01","agent_path":"/home/alice/.wuu/agents/ag_01","agent_profile":"fast","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":2048,"description":"Locate the cart module and its tests","error":"","input_tokens":3400,"output_tokens":310,"parent_id":"","result":"Cart logic lives in src/cart.js; tests in test/cart.test.js.","result_bytes":58,"result_path":"","result_truncated":false,"status":"completed","task_name":"find-cart-code","thread_id":"th_7f3a","type":"subagent_completed"}
    {"cache_creation_tokens":4096,"cache_read_tokens":0,"input_tokens":5200,"output_tokens":180,"thread_id":"th_7f3a","turn_id":"tu_01","type":"usage_updated"}
    {"cache_creation_tokens":4096,"cache_read_tokens":4096,"input_tokens":9800,"output_tokens":420,"thread_id":"th_7f3a","turn_id":"tu_01","type":"usage_updated"}
    {"awaiting_auto_continuation":true,"input_tokens":9800,"output_tokens":420,"thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_01","type":"turn_completed"}
    {"thread_id":"th_7f3a","turn_id":"tu_02","type":"turn_started"}
    {"thread_id":"th_7f3a","todo":{"items":[{"content":"Run the test suite","status":"completed"},{"content":"Fix the failing cart test","status":"completed"}]},"turn_id":"tu_02","type":"todo_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"it_05","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_output_delta"}
    {"error":"","item_id":"it_05","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"it_05","name":"bash","process_id":"4242","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_completed"}
    {"cache_creation_tokens":0,"cache_read_tokens":8192,"input_tokens":11200,"output_tokens":60,"thread_id":"th_7f3a","turn_id":"tu_02","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":11200,"output_tokens":60,"thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_02","type":"turn_completed"}
    {"final_message":"All 42 tests pass now.","run_id":"run_5d1c","status":"completed","thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_02","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter tool examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter tool examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"delta":"\\\\u003e shop@1.0.0 test\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"\\\\u003e shop@1.0.0 test\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"delta":"Tests: 1 failed, 41 passed\\\\ndone\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"Tests: 1 failed, 41 passed\\\\ndone\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"error":"","item_id":"it_01","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","error":"","item_id":"it_01","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"it_02","name":"read_file","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"delta":"export function add(cart, item) {\\\\n  if (cart.items.length \\\\u003e 2) return cart;\\\\n","item_id":"it_02","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"delta":"  return { ...cart, items: [...cart.items, item] };\\\\n}\\\\n","item_id":"it_02","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"error":"","item_id":"it_02","name":"read_file","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","command":"grep -rn cart src","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"item_id":"it_03","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_removed"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","command":"grep -rn cart src","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_removed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"old\\\\":\\\\"\\\\u003e 2\\\\",\\\\"new\\\\":\\\\"\\\\u003e 99\\\\"}","item_id":"it_04","name":"edit_file","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"delta":"Edited src/cart.js (1 replacement)\\\\n","item_id":"it_04","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"error":"","item_id":"it_04","name":"edit_file","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"it_05","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_output_delta"}
    {"error":"","item_id":"it_05","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"it_05","name":"bash","process_id":"4242","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_completed"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > head -n 21 examples/killed.jsonl | wuu-pretty 1`] = `
Object {
  "code": 0,
  "command": "head -n 21 examples/killed.jsonl | wuu-pretty",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto network=false
      thread th_7f3a started
    
    ━━ turn 1 · tu_01 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Run the test suite
      [ ] Fix the failing cart test
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 5 && echo done
      │ > shop@1.0.0 test
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Tests: 1 failed, 41 passed
      │ done
      └ ✓ completed
    ◆ find-cart-code (explorer) started: Locate the cart module and its tests
    ▸ read_file src/cart.js
      └ no completion (the run was cut)
    ── turn 1 cut off before it ended
    
    ━━ ✗ no result: the run was cut ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    the input ended without a result event; seen: 1 turn
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-filter -v subagent todo examples/run.jsonl | wuu-pretty --color never 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter -v subagent todo examples/run.jsonl | wuu-pretty --color never",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto network=false
      thread th_7f3a started
    
    ━━ turn 1 · tu_01 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 5 && echo done
      │ > shop@1.0.0 test
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Tests: 1 failed, 41 passed
      │ done
      └ ✓ completed
    ▸ read_file src/cart.js
      │ export function add(cart, item) {
      │   if (cart.items.length > 2) return cart;
      │   return { ...cart, items: [...cart.items, item] };
      │ }
      └ ✓ completed
    $ grep -rn cart src
      └ withdrawn
    ▸ edit_file src/cart.js
      │ Edited src/cart.js (1 replacement)
      └ ✓ completed
      ✎ modify src/cart.js
    The cart capped items at 3; I raised the limit.
    ── turn 1 completed · prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420 · auto-continues
    
    ━━ turn 2 · tu_02 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 19,392 (11,200 uncached + 0 cache write + 8,192 cache read, 42.2% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run_5d1c · 2 turns · prompt 37,384 (21,000 uncached + 4,096 cache write + 12,288 cache read, 32.9% cache hit) · output 480
    trace /home/alice/.wuu/traces/th_7f3a.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty --full --verbose --width 120 examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --full --verbose --width 120 examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto network=false · protocol 1 · max parallel 4
      thread th_7f3a started
    
    ━━ turn 1 · tu_01 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    · provider_state step 0 events_emitted=12 full_input_items=3 input_items=3 protocol=messages provider=anthropic replay_mode=full transport=sse
    · request_context step 0 message_count=3 prompt_cache_key=shop-7f3a stable_prefix_hash=591785b7 system_bytes=10422 system_hash=b1946ac9 tool_count=9 tool_surface_hash=77e2aa01 turn_prefix_hash=c0ffee12
    ≡ todo 0/2 done
      [>] Run the test suite
      [ ] Fix the failing cart test
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 5 && echo done
      │ > shop@1.0.0 test
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Tests: 1 failed, 41 passed
      │ done
      └ ✓ completed
    ◆ find-cart-code (explorer) started: Locate the cart module and its tests
    ▸ read_file src/cart.js
      │ export function add(cart, item) {
      │   if (cart.items.length > 2) return cart;
      │   return { ...cart, items: [...cart.items, item] };
      │ }
      └ ✓ completed
    $ grep -rn cart src
      └ withdrawn
    ▸ edit_file src/cart.js
      │ Edited src/cart.js (1 replacement)
      └ ✓ completed
      ✎ modify src/cart.js
    ◆ find-cart-code (explorer) ✓ completed · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
      │ Cart logic lives in src/cart.js; tests in test/cart.test.js.
    The cart capped items at 3; I raised the limit.
    ── turn 1 completed · prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420 · auto-continues
    
    ━━ turn 2 · tu_02 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 2/2 done
      [x] Run the test suite
      [x] Fix the failing cart test
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 19,392 (11,200 uncached + 0 cache write + 8,192 cache read, 42.2% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run_5d1c · 2 turns · prompt 37,384 (21,000 uncached + 4,096 cache write + 12,288 cache read, 32.9% cache hit) · output 480
    1 subagent · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    trace /home/alice/.wuu/traces/th_7f3a.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty --markdown examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --markdown examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    # wuu run: claude-sonnet-4
    
    - **Model:** claude-sonnet-4 (anthropic, effort medium)
    - **Workspace:** \`/home/alice/src/shop\`
    - **Permissions:** mode=auto, network=false
    - **Thread:** \`th_7f3a\` (started)
    
    ## Turn 1 · tu_01
    
    **Todo** (0/2 done)
    
    - [ ] Run the test suite *(in progress)*
    - [ ] Fix the failing cart test
    
    I'll run the tests first.
    
    \`\`\`console
    $ npm test 2>&1 | tail -n 5 && echo done
    > shop@1.0.0 test
    FAIL test/cart.test.js
      expected 3 items, got 2 <cart>
    Tests: 1 failed, 41 passed
    done
    \`\`\`
    
    ◆ Subagent **find-cart-code** (explorer) started — Locate the cart module and its tests
    
    \`\`\`text
    ▸ read_file src/cart.js
    export function add(cart, item) {
      if (cart.items.length > 2) return cart;
      return { ...cart, items: [...cart.items, item] };
    }
    \`\`\`
    
    \`\`\`text
    ▸ edit_file src/cart.js
    Edited src/cart.js (1 replacement)
    \`\`\`
    
    - ✎ modify \`src/cart.js\`
    
    ◆ Subagent **find-cart-code** (explorer) completed · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    
    > Cart logic lives in src/cart.js; tests in test/cart.test.js.
    
    The cart capped items at 3; I raised the limit.
    
    *Turn 1 completed · prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420 · auto-continues*
    
    ## Turn 2 · tu_02
    
    **Todo** (2/2 done)
    
    - [x] Run the test suite
    - [x] Fix the failing cart test
    
    \`\`\`console
    $ npm test
    Tests: 42 passed
    \`\`\`
    
    All 42 tests pass now.
    
    *Turn 2 completed · prompt 19,392 (11,200 uncached + 0 cache write + 8,192 cache read, 42.2% cache hit) · output 60*
    
    ## Result: ✓ completed
    
    - **Run:** \`run_5d1c\`, 2 turns
    - **Tokens:** prompt 37,384 (21,000 uncached + 4,096 cache write + 12,288 cache read, 32.9% cache hit) · output 480
    - **Subagents:** 1 subagent, prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    - **Trace:** \`/home/alice/.wuu/traces/th_7f3a.jsonl\`
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty examples/failed.jsonl examples/timeout.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty examples/failed.jsonl examples/timeout.jsonl",
  "stderr": "",
  "stdout": String(
    ━━ examples/failed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● gpt-5 (openai, effort high) in /Users/bob/work/api
      permissions mode=ask
      thread th_9b21 started
    
    ━━ turn 1 · tu_a1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Deploying with the key from .env
    $ curl -H 'Authorization: Bearer sk-proj-abc123def456ghi789jkl012mno345' https://api.example.com/de…
      │ curl: (6) Could not resolve host
      └ ✗ failed: exit status 6
    ── ✗ turn 1 failed: tool failed: exit status 6 · prompt 3,000 · output 90
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    turn failed: tool failed: exit status 6
    run run_77aa · 1 turn · prompt 3,000 · output 90
    trace /Users/bob/.wuu/traces/th_9b21.jsonl
    
    ━━ examples/timeout.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto
      thread th_e5f6 forked
    
    ━━ turn 1 · tu_t1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Refactoring the checkout
    ── ✗ turn 1 interrupted: timeout · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    
    ━━ ✗ timeout ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    timeout after 600s
    run run_t7 · 1 turn · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    trace /home/alice/.wuu/traces/th_e5f6.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto network=false
      thread th_7f3a started
    
    ━━ turn 1 · tu_01 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Run the test suite
      [ ] Fix the failing cart test
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 5 && echo done
      │ > shop@1.0.0 test
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Tests: 1 failed, 41 passed
      │ done
      └ ✓ completed
    ◆ find-cart-code (explorer) started: Locate the cart module and its tests
    ▸ read_file src/cart.js
      │ export function add(cart, item) {
      │   if (cart.items.length > 2) return cart;
      │   return { ...cart, items: [...cart.items, item] };
      │ }
      └ ✓ completed
    $ grep -rn cart src
      └ withdrawn
    ▸ edit_file src/cart.js
      │ Edited src/cart.js (1 replacement)
      └ ✓ completed
      ✎ modify src/cart.js
    ◆ find-cart-code (explorer) ✓ completed · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
      │ Cart logic lives in src/cart.js; tests in test/cart.test.js.
    The cart capped items at 3; I raised the limit.
    ── turn 1 completed · prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420 · auto-continues
    
    ━━ turn 2 · tu_02 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 2/2 done
      [x] Run the test suite
      [x] Fix the failing cart test
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 19,392 (11,200 uncached + 0 cache write + 8,192 cache read, 42.2% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run_5d1c · 2 turns · prompt 37,384 (21,000 uncached + 4,096 cache write + 12,288 cache read, 32.9% cache hit) · output 480
    1 subagent · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    trace /home/alice/.wuu/traces/th_7f3a.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-redact examples/run.jsonl | wuu-pretty --html > run.html 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact examples/run.jsonl | wuu-pretty --html > run.html",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-redact.1 EXAMPLES > wuu-redact --check examples/failed.jsonl 1`] = `
Object {
  "code": 1,
  "command": "wuu-redact --check examples/failed.jsonl",
  "stderr": String(
    wuu-redact: examples/failed.jsonl:1: workspace
    wuu-redact: examples/failed.jsonl:2: workspace
    wuu-redact: examples/failed.jsonl:5: authorization
    wuu-redact: examples/failed.jsonl:6: authorization
    wuu-redact: examples/failed.jsonl:8: authorization
    wuu-redact: examples/failed.jsonl:10: authorization
    wuu-redact: examples/failed.jsonl:13: home
    
  ),
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-redact.1 EXAMPLES > wuu-redact --check share.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact --check share.jsonl",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-redact.1 EXAMPLES > wuu-redact --report '$..arguments' examples/failed.jsonl | wuu-filter tool_started 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact --report '$..arguments' examples/failed.jsonl | wuu-filter tool_started",
  "stderr": String(
    wuu-redact: report: 10 redactions in 7 of 13 events
    wuu-redact: report: rule authorization: 3
    wuu-redact: report: rule home: 1
    wuu-redact: report: rule jsonpath: 4
    wuu-redact: report: rule workspace: 2
    wuu-redact: report: type command_completed: 2
    wuu-redact: report: type command_output_delta: 2
    wuu-redact: report: type command_started: 2
    wuu-redact: report: type result: 1
    wuu-redact: report: type session_configured: 1
    wuu-redact: report: type thread_started: 1
    wuu-redact: report: type tool_started: 1
    
  ),
  "stdout": "{\\"arguments\\":\\"\\\\u003credacted\\\\u003e\\",\\"item_id\\":\\"it_a1\\",\\"name\\":\\"bash\\",\\"thread_id\\":\\"th_9b21\\",\\"turn_id\\":\\"tu_a1\\",\\"type\\":\\"tool_started\\"}\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-redact.1 EXAMPLES > wuu-redact examples/run.jsonl > share.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact examples/run.jsonl > share.jsonl",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > cat examples/run.jsonl | wuu-result --tee -o message.txt | wuu-filter --count result 1`] = `
Object {
  "code": 0,
  "command": "cat examples/run.jsonl | wuu-result --tee -o message.txt | wuu-filter --count result",
  "stderr": "",
  "stdout": String(
    result\\t1
    total\\t1
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result --json examples/timeout.jsonl | jq -r .error 1`] = `
Object {
  "code": 5,
  "command": "wuu-result --json examples/timeout.jsonl | jq -r .error",
  "stderr": "wuu-result: examples/timeout.jsonl: status timeout: timeout after 600s\\n",
  "stdout": "timeout after 600s\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result --structured examples/structured.jsonl | jq .files 1`] = `
Object {
  "code": 0,
  "command": "wuu-result --structured examples/structured.jsonl | jq .files",
  "stderr": "wuu-result: examples/structured.jsonl:9: error event: output schema: property \\"ok\\" expected boolean\\n",
  "stdout": "3\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result examples/failed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/failed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-result: examples/failed.jsonl: status failed: turn failed: tool failed: exit status 6\\n",
  "stdout": String(
    Deploying with the key from .env
    exit 3
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": String(
    wuu-result: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)
    wuu-result: examples/killed.jsonl: no result event: the producer was killed or the stream was cut
    
  ),
  "stdout": "exit 7\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/run.jsonl",
  "stderr": "",
  "stdout": "All 42 tests pass now.\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-stream.1 EXAMPLES > wuu-stream completion bash > /dev/null 1`] = `
Object {
  "code": 0,
  "command": "wuu-stream completion bash > /dev/null",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-stream.1 EXAMPLES > wuu-stream filter --count turn examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-stream filter --count turn examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    turn_started\\t2
    turn_completed\\t2
    total\\t4
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-stream.1 EXAMPLES > wuu-stream help result 1`] = `
Object {
  "code": 0,
  "command": "wuu-stream help result",
  "stderr": "",
  "stdout": String(
    Usage: wuu-result [OPTION]... [FILE]...
    Print the final_message of the run's result event, followed by a newline, and
    exit with a status that mirrors result.status. Meant as the CI step that fails
    the build:  wuu exec --json "..." | tee run.jsonl | wuu-result
    
    Each FILE is its own run: its output is printed in order, and the first run
    that did not complete decides the exit status. A run that did not complete is
    reported on stderr as 'wuu-result: FILE: status STATUS: ERROR'; an error event
    (the final schema validation disagreed) as 'wuu-result: FILE:LINE: error
    event: ERROR', without changing the exit status.
    
    Options:
          --structured       print structured_result as JSON instead (exit 9 when a
                             completed run has none)
          --json             print the whole result event, as its original bytes
          --tee              copy the stream to stdout unchanged, each event as it
                             arrives; the output goes to --output FILE (required)
      -o, --output FILE      write the output to FILE instead of stdout (FILE is
                             truncated at start; empty when there is no result)
    
    Exit status (beyond 1 bad data, 2 usage):
      0 completed   3 failed   4 permission_denied   5 timeout   6 interrupted
      7 no result event (the producer was killed or the stream was cut)
      8 unknown or missing status   9 --structured: no structured_result
    
    Examples:
      wuu exec --json "fix the tests" | tee run.jsonl | wuu-result
      wuu-result --structured structured.jsonl
      wuu exec --json "fix the tests" | wuu-result --tee -o message.txt | wuu-filter tool
    
    Input and bad-line policy (every wuu-stream tool):
      FILE ...               inputs in order; '-' or none reads stdin; a directory
                             means its *.jsonl and *.jsonl.gz files; .gz is decompressed
      --strict               stop at the first bad line (exit 1)
      --pass-invalid         hand bad lines on unchanged instead of skipping them
      --max-line-bytes N     longest line accepted (default 32M; K, M, G suffixes)
      -h, --help             show this help and exit
      --version              print the version and exit
    A bad line is reported on stderr as PROG: FILE:LINE: message.
    Exit status: 0 ok, 1 bad data or failed check, 2 usage error or unreadable input.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns --events --only-turns examples/failed.jsonl | jq -r '.events[].type' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --events --only-turns examples/failed.jsonl | jq -r '.events[].type'",
  "stderr": "",
  "stdout": String(
    turn_started
    agent_message_delta
    tool_started
    command_started
    tool_output_delta
    command_output_delta
    tool_completed
    command_completed
    usage_updated
    turn_failed
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns --only-turns examples/killed.jsonl | jq -c '{turn_id, status, tool_calls}' 1`] = `
Object {
  "code": 1,
  "command": "wuu-turns --only-turns examples/killed.jsonl | jq -c '{turn_id, status, tool_calls}'",
  "stderr": "wuu-turns: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\\n",
  "stdout": "{\\"turn_id\\":\\"tu_01\\",\\"status\\":\\"incomplete\\",\\"tool_calls\\":[{\\"item_id\\":\\"it_01\\",\\"name\\":\\"bash\\",\\"status\\":\\"completed\\",\\"output_bytes\\":106},{\\"item_id\\":\\"it_02\\",\\"name\\":\\"read_file\\",\\"status\\":\\"incomplete\\",\\"output_bytes\\":0}]}\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, message, tools: [.tool_calls[].name], usage}' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, message, tools: [.tool_calls[].name], usage}'",
  "stderr": "",
  "stdout": String(
    {"turn_id":"tu_01","status":"completed","message":"I'll run the tests first. The cart capped items at 3; I raised the limit.","tools":["bash","read_file","edit_file"],"usage":{"input_tokens":9800,"output_tokens":420,"cache_creation_tokens":4096,"cache_read_tokens":4096,"completed_input_tokens":9800,"completed_output_tokens":420}}
    {"turn_id":"tu_02","status":"completed","message":"All 42 tests pass now.","tools":["bash"],"usage":{"input_tokens":11200,"output_tokens":60,"cache_creation_tokens":0,"cache_read_tokens":8192,"completed_input_tokens":11200,"completed_output_tokens":60}}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv'",
  "stderr": "",
  "stdout": String(
    tu_01\\tcompleted\\t9800
    tu_02\\tcompleted\\t11200
    tu_a1\\tfailed\\t3000
    tu_t1\\tinterrupted\\t4000
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns examples/timeout.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns examples/timeout.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"medium","max_parallel":4,"model":"claude-sonnet-4","permissions":{"mode":"auto"},"protocol_version":"1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4","provider":"anthropic","thread_id":"th_e5f6","type":"thread_forked"}
    {"type":"turn","thread_id":"th_e5f6","turn_id":"tu_t1","status":"interrupted","error":null,"reason":"timeout","awaiting_auto_continuation":null,"trace_path":null,"message":"Refactoring the checkout","message_source":"deltas","tool_calls":[],"files_changed":[],"todo":null,"usage":{"input_tokens":4000,"output_tokens":200,"cache_creation_tokens":0,"cache_read_tokens":3000,"completed_input_tokens":null,"completed_output_tokens":null},"event_counts":{"turn_started":1,"agent_message_delta":1,"usage_updated":1,"turn_interrupted":1}}
    {"error":"timeout after 600s","final_message":"Refactoring the checkout","run_id":"run_t7","status":"timeout","thread_id":"th_e5f6","trace_path":"/home/alice/.wuu/traces/th_e5f6.jsonl","turn_id":"tu_t1","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --by thread,model --breakdown --csv examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --by thread,model --breakdown --csv examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": String(
    kind,thread_id,model,agent,breakdown_model,turns,agents,input_tokens,cache_creation_tokens,cache_read_tokens,prompt_tokens,output_tokens,cache_hit_ratio,cost_usd
    row,th_9b21,gpt-5,main,,1,0,3000,0,0,3000,90,0,0.00465
    model,th_9b21,gpt-5,main,gpt-5,1,0,3000,0,0,3000,90,0,0.00465
    row,th_7f3a,claude-sonnet-4,main,,2,0,21000,4096,12288,37384,480,0.328696768,0.0892464
    model,th_7f3a,claude-sonnet-4,main,claude-sonnet-4,2,0,21000,4096,12288,37384,480,0.328696768,0.0892464
    row,th_7f3a,claude-sonnet-4,subagents,,0,1,3400,0,2048,5448,310,0.375917767,0.0154644
    model,th_7f3a,claude-sonnet-4,subagents,claude-sonnet-4,0,1,3400,0,2048,5448,310,0.375917767,0.0154644
    row,th_c4d0,claude-haiku-4,main,,1,0,800,0,0,800,12,0,
    model,th_c4d0,claude-haiku-4,main,claude-haiku-4,1,0,800,0,0,800,12,0,
    row,th_e5f6,claude-sonnet-4,main,,1,0,4000,0,3000,7000,200,0.428571428,0.0159
    model,th_e5f6,claude-sonnet-4,main,claude-sonnet-4,1,0,4000,0,3000,7000,200,0.428571428,0.0159
    total,,,main,,5,0,28800,4096,15288,48184,782,0.317283745,
    total,,,subagents,,0,1,3400,0,2048,5448,310,0.375917767,0.0154644
    total,,,all,,5,1,32200,4096,17336,53632,1092,0.323239856,
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == "total") | .all' 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == \\"total\\") | .all'",
  "stderr": "",
  "stdout": "{\\"turns\\":2,\\"agents\\":1,\\"input_tokens\\":24400,\\"cache_creation_tokens\\":4096,\\"cache_read_tokens\\":14336,\\"output_tokens\\":790,\\"prompt_tokens\\":42832,\\"cache_hit_ratio\\":0.334703025,\\"cost_usd\\":0.1047108}\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --merge --table <(wuu-usage --json examples/run.jsonl) <(wuu-usage --json examples/timeout.jsonl) 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --merge --table <(wuu-usage --json examples/run.jsonl) <(wuu-usage --json examples/timeout.jsonl)",
  "stderr": "",
  "stdout": String(
    THREAD   RUN       AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT   COST
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -----
    th_7f3a  run_5d1c  main           2       0  21,000        4,096      12,288  37,384     480      32.9%  $0.09
    th_7f3a  run_5d1c  subagents      0       1   3,400            0       2,048   5,448     310      37.6%  $0.02
    th_e5f6  run_t7    main           1       0   4,000            0       3,000   7,000     200      42.9%  $0.02
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -----
    TOTAL              main           3       0  25,000        4,096      15,288  44,384     680      34.4%  $0.11
    TOTAL              subagents      0       1   3,400            0       2,048   5,448     310      37.6%  $0.02
    TOTAL              all            3       1  28,400        4,096      17,336  49,832     990      34.8%  $0.12
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --table --by turn examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table --by turn examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    THREAD   RUN       TURN   MODEL            AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT   COST
    -------  --------  -----  ---------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -----
    th_7f3a  run_5d1c  tu_01  claude-sonnet-4  main           1       0   9,800        4,096       4,096  17,992     420      22.8%  $0.05
    th_7f3a  run_5d1c  -      claude-sonnet-4  ag_01          0       1   3,400            0       2,048   5,448     310      37.6%  $0.02
    th_7f3a  run_5d1c  tu_02  claude-sonnet-4  main           1       0  11,200            0       8,192  19,392      60      42.2%  $0.04
    -------  --------  -----  ---------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -----
    TOTAL                                      main           2       0  21,000        4,096      12,288  37,384     480      32.9%  $0.09
    TOTAL                                      subagents      0       1   3,400            0       2,048   5,448     310      37.6%  $0.02
    TOTAL                                      all            2       1  24,400        4,096      14,336  42,832     790      33.5%  $0.10
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --table examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": String(
    THREAD   RUN       AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    th_9b21  run_77aa  main           1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    th_7f3a  run_5d1c  main           2       0  21,000        4,096      12,288  37,384     480      32.9%    $0.09
    th_7f3a  run_5d1c  subagents      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    th_c4d0  run_s9    main           1       0     800            0           0     800      12       0.0%  unknown
    th_e5f6  run_t7    main           1       0   4,000            0       3,000   7,000     200      42.9%    $0.02
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL              main           5       0  28,800        4,096      15,288  48,184     782      31.7%  unknown
    TOTAL              subagents      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    TOTAL              all            5       1  32,200        4,096      17,336  53,632   1,092      32.3%  unknown
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > cat examples/run.jsonl | wuu-result --tee -o message.txt | wuu-filter --count result 1`] = `
Object {
  "code": 0,
  "command": "cat examples/run.jsonl | wuu-result --tee -o message.txt | wuu-filter --count result",
  "stderr": "",
  "stdout": String(
    result\\t1
    total\\t1
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > head -n 21 examples/killed.jsonl | wuu-pretty 1`] = `
Object {
  "code": 0,
  "command": "head -n 21 examples/killed.jsonl | wuu-pretty",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto network=false
      thread th_7f3a started
    
    ━━ turn 1 · tu_01 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Run the test suite
      [ ] Fix the failing cart test
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 5 && echo done
      │ > shop@1.0.0 test
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Tests: 1 failed, 41 passed
      │ done
      └ ✓ completed
    ◆ find-cart-code (explorer) started: Locate the cart module and its tests
    ▸ read_file src/cart.js
      └ no completion (the run was cut)
    ── turn 1 cut off before it ended
    
    ━━ ✗ no result: the run was cut ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    the input ended without a result event; seen: 1 turn
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > ls examples/*.jsonl | xargs -P4 -n 50 sh -c 'mkdir -p parts && wuu-usage --json "$@" > "$(mktemp parts/part.XXXXXX.jsonl)"' sh 1`] = `
Object {
  "code": 0,
  "command": "ls examples/*.jsonl | xargs -P4 -n 50 sh -c 'mkdir -p parts && wuu-usage --json \\"$@\\" > \\"$(mktemp parts/part.XXXXXX.jsonl)\\"' sh",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate --check examples/run.jsonl > /dev/null 1`] = `
Object {
  "code": 1,
  "command": "wuu-accumulate --check examples/run.jsonl > /dev/null",
  "stderr": "wuu-accumulate: examples/run.jsonl:37: turn \\"tu_01\\" of thread \\"th_7f3a\\": the deltas (25 bytes) are only a prefix of agent_message_final (73 bytes)\\n",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .status, .output, .output_truncated_bytes]' 1`] = `
Object {
  "code": 1,
  "command": "wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .status, .output, .output_truncated_bytes]'",
  "stderr": "wuu-accumulate: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\\n",
  "stdout": String(
    ["it_01","completed","> shop@1ed\\\\ndone\\\\n",90]
    ["it_02","incomplete","",0]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate examples/run.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .name, .status, .output_bytes]' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .name, .status, .output_bytes]'",
  "stderr": "",
  "stdout": String(
    ["it_01","bash","completed",106]
    ["it_02","read_file","completed",130]
    ["it_04","edit_file","completed",35]
    ["it_05","bash","completed",17]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate examples/run.jsonl | jq -r 'select(.type == "agent_message") | .message' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -r 'select(.type == \\"agent_message\\") | .message'",
  "stderr": "",
  "stdout": String(
    I'll run the tests first. The cart capped items at 3; I raised the limit.
    All 42 tests pass now.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check --ignore missing-result,cut-line examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-check --ignore missing-result,cut-line examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-check: checked 1 file: 0 errors, 0 warnings\\n",
  "stdout": "exit 0\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check --json examples/killed.jsonl | jq -r .rule 1`] = `
Object {
  "code": 1,
  "command": "wuu-check --json examples/killed.jsonl | jq -r .rule",
  "stderr": "wuu-check: checked 1 file: 2 errors, 0 warnings\\n",
  "stdout": String(
    cut-line
    missing-result
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check examples 1`] = `
Object {
  "code": 1,
  "command": "wuu-check examples",
  "stderr": "wuu-check: checked 5 files: 2 errors, 0 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:22: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)
    examples/killed.jsonl:22: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check examples/killed.jsonl 1`] = `
Object {
  "code": 1,
  "command": "wuu-check examples/killed.jsonl",
  "stderr": "wuu-check: checked 1 file: 2 errors, 0 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:22: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)
    examples/killed.jsonl:22: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-check examples/run.jsonl",
  "stderr": "wuu-check: checked 1 file: 0 errors, 0 warnings\\n",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --count examples/run.jsonl | sort -k2 -n 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --count examples/run.jsonl | sort -k2 -n",
  "stderr": "",
  "stdout": String(
    agent_message_final\\t1
    command_removed\\t1
    file_changed\\t1
    provider_state\\t1
    request_context\\t1
    result\\t1
    session_configured\\t1
    subagent_completed\\t1
    subagent_started\\t1
    subagent_updated\\t1
    thread_started\\t1
    tool_removed\\t1
    command_completed\\t2
    todo_updated\\t2
    turn_completed\\t2
    turn_started\\t2
    command_started\\t3
    usage_updated\\t3
    command_output_delta\\t4
    tool_completed\\t4
    agent_message_delta\\t5
    tool_started\\t5
    tool_output_delta\\t7
    total\\t51
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --count share.jsonl | tail -1 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --count share.jsonl | tail -1",
  "stderr": "",
  "stdout": "total\\t13\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --turn tu_02 --keep-result tool examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --turn tu_02 --keep-result tool examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"it_05","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_output_delta"}
    {"error":"","item_id":"it_05","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"it_05","name":"bash","process_id":"4242","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_completed"}
    {"final_message":"All 42 tests pass now.","run_id":"run_5d1c","status":"completed","thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_02","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --where '$.name==bash' tool_started examples/run.jsonl # JSONPath condition 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.name==bash' tool_started examples/run.jsonl # JSONPath condition",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter -v diag message examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter -v diag message examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"medium","max_parallel":4,"model":"claude-sonnet-4","permissions":{"mode":"auto","network":false},"protocol_version":"1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4","provider":"anthropic","thread_id":"th_7f3a","type":"thread_started"}
    {"thread_id":"th_7f3a","turn_id":"tu_01","type":"turn_started"}
    {"thread_id":"th_7f3a","todo":{"items":[{"content":"Run the test suite","status":"in_progress"},{"content":"Fix the failing cart test","status":"pending"}]},"turn_id":"tu_01","type":"todo_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"delta":"\\\\u003e shop@1.0.0 test\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"\\\\u003e shop@1.0.0 test\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"delta":"Tests: 1 failed, 41 passed\\\\ndone\\\\n","item_id":"it_01","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","delta":"Tests: 1 failed, 41 passed\\\\ndone\\\\n","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_output_delta"}
    {"error":"","item_id":"it_01","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 5 \\\\u0026\\\\u0026 echo done","error":"","item_id":"it_01","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_completed"}
    {"agent_id":"ag_01","agent_path":"/home/alice/.wuu/agents/ag_01","agent_profile":"fast","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":0,"description":"Locate the cart module and its tests","error":"","input_tokens":0,"output_tokens":0,"parent_id":"","result":"","result_bytes":0,"result_path":"","result_truncated":false,"status":"running","task_name":"find-cart-code","thread_id":"th_7f3a","type":"subagent_started"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"it_02","name":"read_file","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"delta":"export function add(cart, item) {\\\\n  if (cart.items.length \\\\u003e 2) return cart;\\\\n","item_id":"it_02","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"delta":"  return { ...cart, items: [...cart.items, item] };\\\\n}\\\\n","item_id":"it_02","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"error":"","item_id":"it_02","name":"read_file","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"agent_id":"ag_01","agent_path":"/home/alice/.wuu/agents/ag_01","agent_profile":"fast","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":1024,"description":"Locate the cart module and its tests","error":"","input_tokens":2100,"output_tokens":150,"parent_id":"","result":"","result_bytes":0,"result_path":"","result_truncated":false,"status":"running","task_name":"find-cart-code","thread_id":"th_7f3a","type":"subagent_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","command":"grep -rn cart src","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"item_id":"it_03","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_removed"}
    {"arguments":"{\\\\"command\\\\":\\\\"grep -rn cart src\\\\"}","command":"grep -rn cart src","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_removed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"old\\\\":\\\\"\\\\u003e 2\\\\",\\\\"new\\\\":\\\\"\\\\u003e 99\\\\"}","item_id":"it_04","name":"edit_file","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_started"}
    {"delta":"Edited src/cart.js (1 replacement)\\\\n","item_id":"it_04","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_output_delta"}
    {"error":"","item_id":"it_04","name":"edit_file","status":"completed","thread_id":"th_7f3a","turn_id":"tu_01","type":"tool_completed"}
    {"action":"modify","item_id":"it_04","new_file_sha":"89e6c98d92887913cadf06b2adb97f26cde4849b","old_file_sha":"3f786850e387550fdab836ed7e6dc881de23001b","path":"/home/alice/src/shop/src/cart.js","thread_id":"th_7f3a","tool_name":"edit_file","turn_id":"tu_01","type":"file_changed","workspace_revision":2}
    {"agent_id":"ag_01","agent_path":"/home/alice/.wuu/agents/ag_01","agent_profile":"fast","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":2048,"description":"Locate the cart module and its tests","error":"","input_tokens":3400,"output_tokens":310,"parent_id":"","result":"Cart logic lives in src/cart.js; tests in test/cart.test.js.","result_bytes":58,"result_path":"","result_truncated":false,"status":"completed","task_name":"find-cart-code","thread_id":"th_7f3a","type":"subagent_completed"}
    {"cache_creation_tokens":4096,"cache_read_tokens":0,"input_tokens":5200,"output_tokens":180,"thread_id":"th_7f3a","turn_id":"tu_01","type":"usage_updated"}
    {"cache_creation_tokens":4096,"cache_read_tokens":4096,"input_tokens":9800,"output_tokens":420,"thread_id":"th_7f3a","turn_id":"tu_01","type":"usage_updated"}
    {"awaiting_auto_continuation":true,"input_tokens":9800,"output_tokens":420,"thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_01","type":"turn_completed"}
    {"thread_id":"th_7f3a","turn_id":"tu_02","type":"turn_started"}
    {"thread_id":"th_7f3a","todo":{"items":[{"content":"Run the test suite","status":"completed"},{"content":"Fix the failing cart test","status":"completed"}]},"turn_id":"tu_02","type":"todo_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"it_05","name":"bash","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"it_05","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_output_delta"}
    {"error":"","item_id":"it_05","name":"bash","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"it_05","name":"bash","process_id":"4242","status":"completed","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_completed"}
    {"cache_creation_tokens":0,"cache_read_tokens":8192,"input_tokens":11200,"output_tokens":60,"thread_id":"th_7f3a","turn_id":"tu_02","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":11200,"output_tokens":60,"thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_02","type":"turn_completed"}
    {"final_message":"All 42 tests pass now.","run_id":"run_5d1c","status":"completed","thread_id":"th_7f3a","trace_path":"/home/alice/.wuu/traces/th_7f3a.jsonl","turn_id":"tu_02","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty --full --verbose --width 120 examples/failed.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --full --verbose --width 120 examples/failed.jsonl",
  "stderr": "",
  "stdout": String(
    ● gpt-5 (openai, effort high) in /Users/bob/work/api
      permissions mode=ask · protocol 1 · max parallel 2
      thread th_9b21 started
    
    ━━ turn 1 · tu_a1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Deploying with the key from .env
    $ curl -H 'Authorization: Bearer sk-proj-abc123def456ghi789jkl012mno345' https://api.example.com/deploy
      │ curl: (6) Could not resolve host
      └ ✗ failed: exit status 6
    ── ✗ turn 1 failed: tool failed: exit status 6 · prompt 3,000 · output 90
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    turn failed: tool failed: exit status 6
    run run_77aa · 1 turn · prompt 3,000 · output 90
    trace /Users/bob/.wuu/traces/th_9b21.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty --markdown examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --markdown examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    # wuu run: claude-sonnet-4
    
    - **Model:** claude-sonnet-4 (anthropic, effort medium)
    - **Workspace:** \`/home/alice/src/shop\`
    - **Permissions:** mode=auto, network=false
    - **Thread:** \`th_7f3a\` (started)
    
    ## Turn 1 · tu_01
    
    **Todo** (0/2 done)
    
    - [ ] Run the test suite *(in progress)*
    - [ ] Fix the failing cart test
    
    I'll run the tests first.
    
    \`\`\`console
    $ npm test 2>&1 | tail -n 5 && echo done
    > shop@1.0.0 test
    FAIL test/cart.test.js
      expected 3 items, got 2 <cart>
    Tests: 1 failed, 41 passed
    done
    \`\`\`
    
    ◆ Subagent **find-cart-code** (explorer) started — Locate the cart module and its tests
    
    \`\`\`text
    ▸ read_file src/cart.js
    export function add(cart, item) {
      if (cart.items.length > 2) return cart;
      return { ...cart, items: [...cart.items, item] };
    }
    \`\`\`
    
    \`\`\`text
    ▸ edit_file src/cart.js
    Edited src/cart.js (1 replacement)
    \`\`\`
    
    - ✎ modify \`src/cart.js\`
    
    ◆ Subagent **find-cart-code** (explorer) completed · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    
    > Cart logic lives in src/cart.js; tests in test/cart.test.js.
    
    The cart capped items at 3; I raised the limit.
    
    *Turn 1 completed · prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420 · auto-continues*
    
    ## Turn 2 · tu_02
    
    **Todo** (2/2 done)
    
    - [x] Run the test suite
    - [x] Fix the failing cart test
    
    \`\`\`console
    $ npm test
    Tests: 42 passed
    \`\`\`
    
    All 42 tests pass now.
    
    *Turn 2 completed · prompt 19,392 (11,200 uncached + 0 cache write + 8,192 cache read, 42.2% cache hit) · output 60*
    
    ## Result: ✓ completed
    
    - **Run:** \`run_5d1c\`, 2 turns
    - **Tokens:** prompt 37,384 (21,000 uncached + 4,096 cache write + 12,288 cache read, 32.9% cache hit) · output 480
    - **Subagents:** 1 subagent, prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    - **Trace:** \`/home/alice/.wuu/traces/th_7f3a.jsonl\`
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=auto network=false
      thread th_7f3a started
    
    ━━ turn 1 · tu_01 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Run the test suite
      [ ] Fix the failing cart test
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 5 && echo done
      │ > shop@1.0.0 test
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Tests: 1 failed, 41 passed
      │ done
      └ ✓ completed
    ◆ find-cart-code (explorer) started: Locate the cart module and its tests
    ▸ read_file src/cart.js
      │ export function add(cart, item) {
      │   if (cart.items.length > 2) return cart;
      │   return { ...cart, items: [...cart.items, item] };
      │ }
      └ ✓ completed
    $ grep -rn cart src
      └ withdrawn
    ▸ edit_file src/cart.js
      │ Edited src/cart.js (1 replacement)
      └ ✓ completed
      ✎ modify src/cart.js
    ◆ find-cart-code (explorer) ✓ completed · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
      │ Cart logic lives in src/cart.js; tests in test/cart.test.js.
    The cart capped items at 3; I raised the limit.
    ── turn 1 completed · prompt 17,992 (9,800 uncached + 4,096 cache write + 4,096 cache read, 22.8% cache hit) · output 420 · auto-continues
    
    ━━ turn 2 · tu_02 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 2/2 done
      [x] Run the test suite
      [x] Fix the failing cart test
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 19,392 (11,200 uncached + 0 cache write + 8,192 cache read, 42.2% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run_5d1c · 2 turns · prompt 37,384 (21,000 uncached + 4,096 cache write + 12,288 cache read, 32.9% cache hit) · output 480
    1 subagent · prompt 5,448 (3,400 uncached + 0 cache write + 2,048 cache read, 37.6% cache hit) · output 310
    trace /home/alice/.wuu/traces/th_7f3a.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact --check examples/failed.jsonl 1`] = `
Object {
  "code": 1,
  "command": "wuu-redact --check examples/failed.jsonl",
  "stderr": String(
    wuu-redact: examples/failed.jsonl:1: workspace
    wuu-redact: examples/failed.jsonl:2: workspace
    wuu-redact: examples/failed.jsonl:5: authorization
    wuu-redact: examples/failed.jsonl:6: authorization
    wuu-redact: examples/failed.jsonl:8: authorization
    wuu-redact: examples/failed.jsonl:10: authorization
    wuu-redact: examples/failed.jsonl:13: home
    
  ),
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact --check share.jsonl && echo "share.jsonl: nothing left to redact" 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact --check share.jsonl && echo \\"share.jsonl: nothing left to redact\\"",
  "stderr": "",
  "stdout": "share.jsonl: nothing left to redact\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact --pseudonymize --salt "$RANDOM$RANDOM" examples/failed.jsonl > /dev/null 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact --pseudonymize --salt \\"$RANDOM$RANDOM\\" examples/failed.jsonl > /dev/null",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact --report examples/failed.jsonl > share.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact --report examples/failed.jsonl > share.jsonl",
  "stderr": String(
    wuu-redact: report: 10 redactions in 7 of 13 events
    wuu-redact: report: rule authorization: 7
    wuu-redact: report: rule home: 1
    wuu-redact: report: rule workspace: 2
    wuu-redact: report: type command_completed: 2
    wuu-redact: report: type command_output_delta: 2
    wuu-redact: report: type command_started: 2
    wuu-redact: report: type result: 1
    wuu-redact: report: type session_configured: 1
    wuu-redact: report: type thread_started: 1
    wuu-redact: report: type tool_started: 1
    
  ),
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact '$..arguments' '$..command' examples/run.jsonl | wuu-filter command_started 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact '$..arguments' '$..command' examples/run.jsonl | wuu-filter command_started",
  "stderr": "",
  "stdout": String(
    {"arguments":"\\\\u003credacted\\\\u003e","command":"\\\\u003credacted\\\\u003e","item_id":"it_01","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"arguments":"\\\\u003credacted\\\\u003e","command":"\\\\u003credacted\\\\u003e","item_id":"it_03","name":"bash","thread_id":"th_7f3a","turn_id":"tu_01","type":"command_started"}
    {"arguments":"\\\\u003credacted\\\\u003e","command":"\\\\u003credacted\\\\u003e","item_id":"it_05","name":"bash","process_id":"4242","thread_id":"th_7f3a","turn_id":"tu_02","type":"command_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact < examples/run.jsonl > share.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact < examples/run.jsonl > share.jsonl",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact examples/failed.jsonl | wuu-filter tool_started 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact examples/failed.jsonl | wuu-filter tool_started",
  "stderr": "",
  "stdout": "{\\"arguments\\":\\"{\\\\\\"command\\\\\\":\\\\\\"curl -H 'Authorization: Bearer \\\\u003csecret:authorization\\\\u003e' https://api.example.com/deploy\\\\\\"}\\",\\"item_id\\":\\"it_a1\\",\\"name\\":\\"bash\\",\\"thread_id\\":\\"th_9b21\\",\\"turn_id\\":\\"tu_a1\\",\\"type\\":\\"tool_started\\"}\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact examples/run.jsonl | wuu-pretty --html > run.html 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact examples/run.jsonl | wuu-pretty --html > run.html",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result --json examples/timeout.jsonl | jq -r .error 1`] = `
Object {
  "code": 5,
  "command": "wuu-result --json examples/timeout.jsonl | jq -r .error",
  "stderr": "wuu-result: examples/timeout.jsonl: status timeout: timeout after 600s\\n",
  "stdout": "timeout after 600s\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result --structured examples/structured.jsonl | jq .files 1`] = `
Object {
  "code": 0,
  "command": "wuu-result --structured examples/structured.jsonl | jq .files",
  "stderr": "wuu-result: examples/structured.jsonl:9: error event: output schema: property \\"ok\\" expected boolean\\n",
  "stdout": "3\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result examples/failed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/failed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-result: examples/failed.jsonl: status failed: turn failed: tool failed: exit status 6\\n",
  "stdout": String(
    Deploying with the key from .env
    exit 3
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": String(
    wuu-result: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)
    wuu-result: examples/killed.jsonl: no result event: the producer was killed or the stream was cut
    
  ),
  "stdout": "exit 7\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/run.jsonl",
  "stderr": "",
  "stdout": "All 42 tests pass now.\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-stream 1`] = `
Object {
  "code": 0,
  "command": "wuu-stream",
  "stderr": "",
  "stdout": String(
    Usage: wuu-stream TOOL [ARG]...
           wuu-stream help TOOL
           wuu-stream completion bash|zsh
    Composable filters over the JSONL event stream of 'wuu exec --json'.
    'wuu-stream TOOL ARGS' runs exactly what 'wuu-TOOL ARGS' runs.
    
    Tools:
      filter      keep the events that match types, families, ids or JSONPath
      accumulate  replace streamed deltas with whole agent_message and tool_call events
      turns       one record per turn: status, message, tool calls, files, usage
      redact      remove secrets and private paths, keep the stream valid
      usage       token usage and cost per turn, run, model, file or day, subagents apart
      result      print the run's final message and exit with a status that mirrors the run
      check       validate a stream against the wire protocol and report every problem
      pretty      render the event stream for people: live terminal view, Markdown or HTML
      completion  print a bash or zsh completion script
    
    Each tool is also installed as its own command (wuu-filter, ...).
    See 'wuu-stream help TOOL' and man wuu-stream(7).
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-stream filter --count turn examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-stream filter --count turn examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    turn_started\\t2
    turn_completed\\t2
    total\\t4
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-stream help result 1`] = `
Object {
  "code": 0,
  "command": "wuu-stream help result",
  "stderr": "",
  "stdout": String(
    Usage: wuu-result [OPTION]... [FILE]...
    Print the final_message of the run's result event, followed by a newline, and
    exit with a status that mirrors result.status. Meant as the CI step that fails
    the build:  wuu exec --json "..." | tee run.jsonl | wuu-result
    
    Each FILE is its own run: its output is printed in order, and the first run
    that did not complete decides the exit status. A run that did not complete is
    reported on stderr as 'wuu-result: FILE: status STATUS: ERROR'; an error event
    (the final schema validation disagreed) as 'wuu-result: FILE:LINE: error
    event: ERROR', without changing the exit status.
    
    Options:
          --structured       print structured_result as JSON instead (exit 9 when a
                             completed run has none)
          --json             print the whole result event, as its original bytes
          --tee              copy the stream to stdout unchanged, each event as it
                             arrives; the output goes to --output FILE (required)
      -o, --output FILE      write the output to FILE instead of stdout (FILE is
                             truncated at start; empty when there is no result)
    
    Exit status (beyond 1 bad data, 2 usage):
      0 completed   3 failed   4 permission_denied   5 timeout   6 interrupted
      7 no result event (the producer was killed or the stream was cut)
      8 unknown or missing status   9 --structured: no structured_result
    
    Examples:
      wuu exec --json "fix the tests" | tee run.jsonl | wuu-result
      wuu-result --structured structured.jsonl
      wuu exec --json "fix the tests" | wuu-result --tee -o message.txt | wuu-filter tool
    
    Input and bad-line policy (every wuu-stream tool):
      FILE ...               inputs in order; '-' or none reads stdin; a directory
                             means its *.jsonl and *.jsonl.gz files; .gz is decompressed
      --strict               stop at the first bad line (exit 1)
      --pass-invalid         hand bad lines on unchanged instead of skipping them
      --max-line-bytes N     longest line accepted (default 32M; K, M, G suffixes)
      -h, --help             show this help and exit
      --version              print the version and exit
    A bad line is reported on stderr as PROG: FILE:LINE: message.
    Exit status: 0 ok, 1 bad data or failed check, 2 usage error or unreadable input.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --events --only-turns examples/failed.jsonl | jq -r '.events[].type' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --events --only-turns examples/failed.jsonl | jq -r '.events[].type'",
  "stderr": "",
  "stdout": String(
    turn_started
    agent_message_delta
    tool_started
    command_started
    tool_output_delta
    command_output_delta
    tool_completed
    command_completed
    usage_updated
    turn_failed
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --only-turns examples/killed.jsonl | jq -c '{turn_id, status, tool_calls}' 1`] = `
Object {
  "code": 1,
  "command": "wuu-turns --only-turns examples/killed.jsonl | jq -c '{turn_id, status, tool_calls}'",
  "stderr": "wuu-turns: examples/killed.jsonl:22: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57)\\n",
  "stdout": "{\\"turn_id\\":\\"tu_01\\",\\"status\\":\\"incomplete\\",\\"tool_calls\\":[{\\"item_id\\":\\"it_01\\",\\"name\\":\\"bash\\",\\"status\\":\\"completed\\",\\"output_bytes\\":106},{\\"item_id\\":\\"it_02\\",\\"name\\":\\"read_file\\",\\"status\\":\\"incomplete\\",\\"output_bytes\\":0}]}\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, message, tools: [.tool_calls[].name], usage}' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, message, tools: [.tool_calls[].name], usage}'",
  "stderr": "",
  "stdout": String(
    {"turn_id":"tu_01","status":"completed","message":"I'll run the tests first. The cart capped items at 3; I raised the limit.","tools":["bash","read_file","edit_file"],"usage":{"input_tokens":9800,"output_tokens":420,"cache_creation_tokens":4096,"cache_read_tokens":4096,"completed_input_tokens":9800,"completed_output_tokens":420}}
    {"turn_id":"tu_02","status":"completed","message":"All 42 tests pass now.","tools":["bash"],"usage":{"input_tokens":11200,"output_tokens":60,"cache_creation_tokens":0,"cache_read_tokens":8192,"completed_input_tokens":11200,"completed_output_tokens":60}}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv'",
  "stderr": "",
  "stdout": String(
    tu_01\\tcompleted\\t9800
    tu_02\\tcompleted\\t11200
    tu_a1\\tfailed\\t3000
    tu_t1\\tinterrupted\\t4000
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns examples/timeout.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns examples/timeout.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"medium","max_parallel":4,"model":"claude-sonnet-4","permissions":{"mode":"auto"},"protocol_version":"1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4","provider":"anthropic","thread_id":"th_e5f6","type":"thread_forked"}
    {"type":"turn","thread_id":"th_e5f6","turn_id":"tu_t1","status":"interrupted","error":null,"reason":"timeout","awaiting_auto_continuation":null,"trace_path":null,"message":"Refactoring the checkout","message_source":"deltas","tool_calls":[],"files_changed":[],"todo":null,"usage":{"input_tokens":4000,"output_tokens":200,"cache_creation_tokens":0,"cache_read_tokens":3000,"completed_input_tokens":null,"completed_output_tokens":null},"event_counts":{"turn_started":1,"agent_message_delta":1,"usage_updated":1,"turn_interrupted":1}}
    {"error":"timeout after 600s","final_message":"Refactoring the checkout","run_id":"run_t7","status":"timeout","thread_id":"th_e5f6","trace_path":"/home/alice/.wuu/traces/th_e5f6.jsonl","turn_id":"tu_t1","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --by thread,model --breakdown --csv examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --by thread,model --breakdown --csv examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": String(
    kind,thread_id,model,agent,breakdown_model,turns,agents,input_tokens,cache_creation_tokens,cache_read_tokens,prompt_tokens,output_tokens,cache_hit_ratio,cost_usd
    row,th_9b21,gpt-5,main,,1,0,3000,0,0,3000,90,0,0.00465
    model,th_9b21,gpt-5,main,gpt-5,1,0,3000,0,0,3000,90,0,0.00465
    row,th_7f3a,claude-sonnet-4,main,,2,0,21000,4096,12288,37384,480,0.328696768,0.0892464
    model,th_7f3a,claude-sonnet-4,main,claude-sonnet-4,2,0,21000,4096,12288,37384,480,0.328696768,0.0892464
    row,th_7f3a,claude-sonnet-4,subagents,,0,1,3400,0,2048,5448,310,0.375917767,0.0154644
    model,th_7f3a,claude-sonnet-4,subagents,claude-sonnet-4,0,1,3400,0,2048,5448,310,0.375917767,0.0154644
    row,th_c4d0,claude-haiku-4,main,,1,0,800,0,0,800,12,0,
    model,th_c4d0,claude-haiku-4,main,claude-haiku-4,1,0,800,0,0,800,12,0,
    row,th_e5f6,claude-sonnet-4,main,,1,0,4000,0,3000,7000,200,0.428571428,0.0159
    model,th_e5f6,claude-sonnet-4,main,claude-sonnet-4,1,0,4000,0,3000,7000,200,0.428571428,0.0159
    total,,,main,,5,0,28800,4096,15288,48184,782,0.317283745,
    total,,,subagents,,0,1,3400,0,2048,5448,310,0.375917767,0.0154644
    total,,,all,,5,1,32200,4096,17336,53632,1092,0.323239856,
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == "total") | .all' 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == \\"total\\") | .all'",
  "stderr": "",
  "stdout": "{\\"turns\\":2,\\"agents\\":1,\\"input_tokens\\":24400,\\"cache_creation_tokens\\":4096,\\"cache_read_tokens\\":14336,\\"output_tokens\\":790,\\"prompt_tokens\\":42832,\\"cache_hit_ratio\\":0.334703025,\\"cost_usd\\":0.1047108}\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --merge --table parts/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --merge --table parts/",
  "stderr": "wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)\\n",
  "stdout": String(
    THREAD   RUN       AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    th_9b21  run_77aa  main           1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    th_7f3a  run_5d1c  main           2       0  21,000        4,096      12,288  37,384     480      32.9%    $0.09
    th_7f3a  run_5d1c  subagents      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    th_c4d0  run_s9    main           1       0     800            0           0     800      12       0.0%  unknown
    th_e5f6  run_t7    main           1       0   4,000            0       3,000   7,000     200      42.9%    $0.02
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL              main           5       0  28,800        4,096      15,288  48,184     782      31.7%  unknown
    TOTAL              subagents      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    TOTAL              all            5       1  32,200        4,096      17,336  53,632   1,092      32.3%  unknown
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --pricing examples/pricing.json --markdown --by thread examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --pricing examples/pricing.json --markdown --by thread examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    | THREAD | AGENT | TURNS | AGENTS | INPUT | CACHE WRITE | CACHE READ | PROMPT | OUTPUT | CACHE HIT | COST |
    |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
    | th\\\\_7f3a | main | 2 | 0 | 21,000 | 4,096 | 12,288 | 37,384 | 480 | 32.9% | $0.09 |
    | th\\\\_7f3a | subagents | 0 | 1 | 3,400 | 0 | 2,048 | 5,448 | 310 | 37.6% | $0.02 |
    | TOTAL | main | 2 | 0 | 21,000 | 4,096 | 12,288 | 37,384 | 480 | 32.9% | $0.09 |
    | TOTAL | subagents | 0 | 1 | 3,400 | 0 | 2,048 | 5,448 | 310 | 37.6% | $0.02 |
    | TOTAL | all | 2 | 1 | 24,400 | 4,096 | 14,336 | 42,832 | 790 | 33.5% | $0.10 |
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --table --by model --breakdown examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table --by model --breakdown examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": String(
    MODEL            AGENT      BY MODEL           TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    ---------------  ---------  -----------------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    claude-haiku-4   main                              1       0     800            0           0     800      12       0.0%  unknown
                                └ claude-haiku-4       1       0     800            0           0     800      12       0.0%  unknown
    claude-sonnet-4  main                              3       0  25,000        4,096      15,288  44,384     680      34.4%    $0.11
                                └ claude-sonnet-4      3       0  25,000        4,096      15,288  44,384     680      34.4%    $0.11
    claude-sonnet-4  subagents                         0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
                                └ claude-sonnet-4      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    gpt-5            main                              1       0   3,000            0           0   3,000      90       0.0%  $0.0047
                                └ gpt-5                1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    ---------------  ---------  -----------------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL            main                              5       0  28,800        4,096      15,288  48,184     782      31.7%  unknown
    TOTAL            subagents                         0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    TOTAL            all                               5       1  32,200        4,096      17,336  53,632   1,092      32.3%  unknown
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --table examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": String(
    THREAD   RUN       AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    th_9b21  run_77aa  main           1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    th_7f3a  run_5d1c  main           2       0  21,000        4,096      12,288  37,384     480      32.9%    $0.09
    th_7f3a  run_5d1c  subagents      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    th_c4d0  run_s9    main           1       0     800            0           0     800      12       0.0%  unknown
    th_e5f6  run_t7    main           1       0   4,000            0       3,000   7,000     200      42.9%    $0.02
    -------  --------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL              main           5       0  28,800        4,096      15,288  48,184     782      31.7%  unknown
    TOTAL              subagents      0       1   3,400            0       2,048   5,448     310      37.6%    $0.02
    TOTAL              all            5       1  32,200        4,096      17,336  53,632   1,092      32.3%  unknown
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:22: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 57); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 21: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/run.jsonl:3: warning: turn tu_01 (thread th_7f3a) already seen at examples/killed.jsonl:3; counted once
    wuu-usage: examples/run.jsonl:20: warning: subagent ag_01 already seen at examples/killed.jsonl:20; counted once
    wuu-usage: warning: no price for model anthropic/claude-haiku-4: its cost is shown as unknown (add it with --pricing FILE)
    
  ),
  "stdout": String(
    kind\\tthread_id\\trun_id\\tagent\\tturns\\tagents\\tinput_tokens\\tcache_creation_tokens\\tcache_read_tokens\\tprompt_tokens\\toutput_tokens\\tcache_hit_ratio\\tcost_usd
    row\\tth_9b21\\trun_77aa\\tmain\\t1\\t0\\t3000\\t0\\t0\\t3000\\t90\\t0\\t0.00465
    row\\tth_7f3a\\trun_5d1c\\tmain\\t2\\t0\\t21000\\t4096\\t12288\\t37384\\t480\\t0.328696768\\t0.0892464
    row\\tth_7f3a\\trun_5d1c\\tsubagents\\t0\\t1\\t3400\\t0\\t2048\\t5448\\t310\\t0.375917767\\t0.0154644
    row\\tth_c4d0\\trun_s9\\tmain\\t1\\t0\\t800\\t0\\t0\\t800\\t12\\t0\\t
    row\\tth_e5f6\\trun_t7\\tmain\\t1\\t0\\t4000\\t0\\t3000\\t7000\\t200\\t0.428571428\\t0.0159
    total\\t\\t\\tmain\\t5\\t0\\t28800\\t4096\\t15288\\t48184\\t782\\t0.317283745\\t
    total\\t\\t\\tsubagents\\t0\\t1\\t3400\\t0\\t2048\\t5448\\t310\\t0.375917767\\t0.0154644
    total\\t\\t\\tall\\t5\\t1\\t32200\\t4096\\t17336\\t53632\\t1092\\t0.323239856\\t
    
  ),
}
`
