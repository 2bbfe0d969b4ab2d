/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate --check examples/run.jsonl > /dev/null 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate --check examples/run.jsonl > /dev/null",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .status, .output, .output_truncated_bytes]' 1`] = `
Object {
  "code": 1,
  "command": "wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .status, .output, .output_truncated_bytes]'",
  "stderr": "wuu-accumulate: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\\n",
  "stdout": String(
    ["20261202-233000-e1d2-turn-0001-item-3","completed","{\\\\"contents.sql\\\\"}",86]
    ["20261202-233000-e1d2-turn-0001-item-5","completed","migrated code 0\\\\n",27]
    ["20261202-233000-e1d2-turn-0001-item-7","incomplete","seeding 0 rows)\\\\n",19]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate examples/run.jsonl | jq -c 'select(.type == "tool_call" and .exit_code != null and .exit_code != 0) | [.command, .exit_code]' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -c 'select(.type == \\"tool_call\\" and .exit_code != null and .exit_code != 0) | [.command, .exit_code]'",
  "stderr": "",
  "stdout": "[\\"npm test 2>&1 | tail -n 3\\",1]\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate examples/run.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .name, .status, .output_bytes]' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .name, .status, .output_bytes]'",
  "stderr": "",
  "stdout": String(
    ["20261202-231501-7f3a-turn-0001-item-3","bash","completed",68]
    ["agent-7e21-turn-0001-item-2","grep","completed",32]
    ["20261202-231501-7f3a-turn-0001-item-5","read_file","completed",107]
    ["20261202-231501-7f3a-turn-0001-item-7","edit_file","completed",170]
    ["20261202-231501-7f3a-turn-0001-item-9","bash","completed",38]
    ["20261202-231501-7f3a-turn-0002-item-3","bash","completed",17]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-accumulate.1 EXAMPLES > wuu-accumulate examples/run.jsonl | jq -r 'select(.type == "agent_message") | .message' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -r 'select(.type == \\"agent_message\\") | .message'",
  "stderr": "",
  "stdout": String(
    I'll run the tests first. The total dropped the last item; fixed it in src/cart.js.
    The build finished. Running the tests again. All 42 tests pass now.
    
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
  "code": 0,
  "command": "wuu-check --json examples/killed.jsonl | jq -r .rule",
  "stderr": "wuu-check: checked 1 file: 0 errors, 2 warnings\\n",
  "stdout": String(
    cut-line
    missing-result
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check --max-warnings 0 examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-check --max-warnings 0 examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-check: checked 1 file: 0 errors, 2 warnings (more than --max-warnings 0)\\n",
  "stdout": String(
    examples/killed.jsonl:25: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
    examples/killed.jsonl:25: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    exit 1
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check examples 1`] = `
Object {
  "code": 0,
  "command": "wuu-check examples",
  "stderr": "wuu-check: checked 7 files: 0 errors, 2 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:25: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
    examples/killed.jsonl:25: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-check.1 EXAMPLES > wuu-check examples/killed.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-check examples/killed.jsonl",
  "stderr": "wuu-check: checked 1 file: 0 errors, 2 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:25: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
    examples/killed.jsonl:25: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
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
    request_context\\t1
    provider_state\\t3
    todo_updated\\t2
    agent_message_delta\\t7
    tool_started\\t6
    command_started\\t3
    tool_output_delta\\t6
    command_output_delta\\t3
    tool_completed\\t6
    command_completed\\t3
    usage_updated\\t5
    subagent_started\\t1
    turn_completed\\t3
    subagent_completed\\t1
    file_changed\\t1
    result\\t1
    total\\t56
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter --turn 20261202-231501-7f3a-turn-0002 --keep-result tool examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --turn 20261202-231501-7f3a-turn-0002 --keep-result tool examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_completed"}
    {"final_message":"The build finished. Running the tests again. All 42 tests pass now.","run_id":"run-20261202-231501-7f3a","status":"completed","thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0002","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter --where '$.arguments.command~=^npm' tool_started examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.arguments.command~=^npm' tool_started examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter --where '$.name==bash' tool_started examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.name==bash' tool_started examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter -v diag message examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter -v diag message examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"medium","max_parallel":4,"model":"claude-sonnet-4-5","permissions":{"mode":"standard"},"protocol_version":"wuu-app-server/v0.1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4-5","provider":"anthropic","thread_id":"20261202-231501-7f3a","type":"thread_started"}
    {"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"turn_started"}
    {"thread_id":"20261202-231501-7f3a","todo":{"explanation":"Fix the failing cart test","todos":[{"content":"Run the test suite","status":"in_progress"},{"content":"Fix the cart total","status":"pending"}]},"turn_id":"20261202-231501-7f3a-turn-0001","type":"todo_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\nExit code 1\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\nExit code 1\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","error":"","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_completed"}
    {"cache_creation_tokens":4096,"cache_read_tokens":0,"input_tokens":1800,"output_tokens":95,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"usage_updated"}
    {"agent_id":"agent-7e21","agent_path":"20261202-231501-7f3a/agent-7e21","agent_profile":"default","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":0,"description":"Find every caller of total()","error":"","input_tokens":0,"output_tokens":0,"parent_id":"20261202-231501-7f3a","result":"","result_bytes":0,"result_path":"","result_truncated":false,"status":"running","task_name":"find-callers","thread_id":"20261202-231501-7f3a","type":"subagent_started"}
    {"cache_creation_tokens":1000,"cache_read_tokens":0,"input_tokens":300,"output_tokens":12,"thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"usage_updated"}
    {"arguments":"{\\\\"pattern\\\\":\\\\"total(\\\\",\\\\"path\\\\":\\\\"src\\\\"}","item_id":"agent-7e21-turn-0001-item-2","name":"grep","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_started"}
    {"delta":"src/checkout.js:18\\\\nsrc/api.js:7\\\\n","item_id":"agent-7e21-turn-0001-item-2","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"agent-7e21-turn-0001-item-2","name":"grep","status":"completed","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_completed"}
    {"cache_creation_tokens":1000,"cache_read_tokens":0,"input_tokens":420,"output_tokens":38,"thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":420,"output_tokens":38,"thread_id":"agent-7e21","trace_path":"/home/alice/.wuu/sessions/agent-7e21/session-trace.jsonl","turn_id":"agent-7e21-turn-0001","type":"turn_completed"}
    {"agent_id":"agent-7e21","agent_path":"20261202-231501-7f3a/agent-7e21","agent_profile":"default","agent_type":"explorer","cache_creation_tokens":1000,"cache_read_tokens":0,"description":"Find every caller of total()","error":"","input_tokens":420,"output_tokens":38,"parent_id":"20261202-231501-7f3a","result":"total() is called from src/checkout.js:18 and src/api.js:7.","result_bytes":59,"result_path":"","result_truncated":false,"status":"completed","task_name":"find-callers","thread_id":"20261202-231501-7f3a","type":"subagent_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-5","name":"read_file","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"delta":"{\\\\"content\\\\":\\\\"export function total(items) {\\\\\\\\n  return items.slice(0, -1).length;\\\\\\\\n}\\\\\\\\n\\\\",\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-5","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-5","name":"read_file","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"old_string\\\\":\\\\"items.slice(0, -1).length\\\\",\\\\"new_string\\\\":\\\\"items.length\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-7","name":"edit_file","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"delta":"{\\\\"action\\\\":\\\\"edit\\\\",\\\\"new_file_sha\\\\":\\\\"sha256:b71c0e55\\\\",\\\\"old_file_sha\\\\":\\\\"sha256:4d9a6f02\\\\",\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"workspace_revision\\\\":\\\\"git:3f9c2a1b7d4e:worktree:8d0c5e2f41a7b390\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-7","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-7","name":"edit_file","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"action":"edit","item_id":"20261202-231501-7f3a-turn-0001-item-7","new_file_sha":"sha256:b71c0e55","old_file_sha":"sha256:4d9a6f02","path":"src/cart.js","thread_id":"20261202-231501-7f3a","tool_name":"edit_file","turn_id":"20261202-231501-7f3a-turn-0001","type":"file_changed","workspace_revision":"git:3f9c2a1b7d4e:worktree:8d0c5e2f41a7b390"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"delta":"Running in background as process 4242\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-9","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","delta":"Running in background as process 4242\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","error":"","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_completed"}
    {"cache_creation_tokens":4096,"cache_read_tokens":4096,"input_tokens":3900,"output_tokens":310,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"usage_updated"}
    {"thread_id":"20261202-231501-7f3a","todo":{"explanation":"Fix the failing cart test","todos":[{"content":"Run the test suite","status":"completed"},{"content":"Fix the cart total","status":"completed"}]},"turn_id":"20261202-231501-7f3a-turn-0001","type":"todo_updated"}
    {"awaiting_auto_continuation":true,"input_tokens":3900,"output_tokens":310,"thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0001","type":"turn_completed"}
    {"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"turn_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_completed"}
    {"cache_creation_tokens":0,"cache_read_tokens":8192,"input_tokens":800,"output_tokens":60,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":800,"output_tokens":60,"thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0002","type":"turn_completed"}
    {"final_message":"The build finished. Running the tests again. All 42 tests pass now.","run_id":"run-20261202-231501-7f3a","status":"completed","thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0002","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-filter.1 EXAMPLES > wuu-filter tool examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter tool examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\nExit code 1\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\nExit code 1\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","error":"","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_completed"}
    {"arguments":"{\\\\"pattern\\\\":\\\\"total(\\\\",\\\\"path\\\\":\\\\"src\\\\"}","item_id":"agent-7e21-turn-0001-item-2","name":"grep","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_started"}
    {"delta":"src/checkout.js:18\\\\nsrc/api.js:7\\\\n","item_id":"agent-7e21-turn-0001-item-2","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"agent-7e21-turn-0001-item-2","name":"grep","status":"completed","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-5","name":"read_file","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"delta":"{\\\\"content\\\\":\\\\"export function total(items) {\\\\\\\\n  return items.slice(0, -1).length;\\\\\\\\n}\\\\\\\\n\\\\",\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-5","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-5","name":"read_file","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"old_string\\\\":\\\\"items.slice(0, -1).length\\\\",\\\\"new_string\\\\":\\\\"items.length\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-7","name":"edit_file","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"delta":"{\\\\"action\\\\":\\\\"edit\\\\",\\\\"new_file_sha\\\\":\\\\"sha256:b71c0e55\\\\",\\\\"old_file_sha\\\\":\\\\"sha256:4d9a6f02\\\\",\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"workspace_revision\\\\":\\\\"git:3f9c2a1b7d4e:worktree:8d0c5e2f41a7b390\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-7","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-7","name":"edit_file","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"delta":"Running in background as process 4242\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-9","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","delta":"Running in background as process 4242\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","error":"","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_completed"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-import.1 EXAMPLES > wuu-import examples/import/codex-exec.ndjson | wuu-redact | wuu-filter --count 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/import/codex-exec.ndjson | wuu-redact | wuu-filter --count",
  "stderr": "",
  "stdout": String(
    session_configured\\t1
    thread_started\\t1
    turn_started\\t1
    agent_message_delta\\t2
    tool_started\\t2
    tool_output_delta\\t2
    tool_completed\\t2
    agent_message_final\\t1
    usage_updated\\t1
    turn_completed\\t1
    result\\t1
    total\\t15
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-import.1 EXAMPLES > wuu-import examples/import/codex-exec.ndjson | wuu-result 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/import/codex-exec.ndjson | wuu-result",
  "stderr": "",
  "stdout": "The build check failed with exit code 3.\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-import.1 EXAMPLES > wuu-import examples/pricing.json; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/pricing.json; echo \\"exit $?\\"",
  "stderr": String(
    wuu-import: examples/pricing.json:1: not valid JSON (Expected property name or '}' in JSON at position 1)
    wuu-import: examples/pricing.json:2: not valid JSON (Unexpected non-whitespace character after JSON at position 12)
    wuu-import: examples/pricing.json:3: not valid JSON (Unexpected non-whitespace character after JSON at position 31)
    wuu-import: examples/pricing.json:4: not valid JSON (Unexpected non-whitespace character after JSON at position 18)
    wuu-import: examples/pricing.json: cannot tell which producer wrote this stream from its first 5 lines; known producers: wuu ('wuu exec --json', passed through unchanged), codex ('codex exec --json'), claude ('claude -p --output-format stream-json --verbose'), gemini ('gemini --output-format stream-json'); name it with --from claude, codex or gemini
    
  ),
  "stdout": "exit 2\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-import.1 EXAMPLES > wuu-import examples/run.jsonl | wuu-filter --count 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/run.jsonl | wuu-filter --count",
  "stderr": "",
  "stdout": String(
    session_configured\\t1
    thread_started\\t1
    turn_started\\t2
    request_context\\t1
    provider_state\\t3
    todo_updated\\t2
    agent_message_delta\\t7
    tool_started\\t6
    command_started\\t3
    tool_output_delta\\t6
    command_output_delta\\t3
    tool_completed\\t6
    command_completed\\t3
    usage_updated\\t5
    subagent_started\\t1
    turn_completed\\t3
    subagent_completed\\t1
    file_changed\\t1
    result\\t1
    total\\t56
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > head -n 21 examples/killed.jsonl | wuu-pretty 1`] = `
Object {
  "code": 0,
  "command": "head -n 21 examples/killed.jsonl | wuu-pretty",
  "stderr": "",
  "stdout": String(
    ● claude-haiku-4-5 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-233000-e1d2 started
    
    ━━ turn 1 · 20261202-233000-e1d2-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Migrate the database
      [ ] Seed test data
    Running the migration, then seeding.
    ▸ read_file db/migrations/007_carts.sql
      │ read db/migrations/007_carts.sql
      │ ALTER TABLE carts ADD COLUMN total_cents integer;
      └ ✓ completed
    $ npm run migrate
      │ migrated: users, carts, orders
      │ Exit code 0
      └ ✓ completed
    ≡ todo 1/2 done
      [x] Migrate the database
      [>] Seed test data
    $ npm run seed -- --rows 100000
      └ no completion (the run was cut)
    ── turn 1 cut off before it ended · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 70
    
    ━━ ✗ no result: the run was cut ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    the input ended without a result event; seen: 1 turn · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 70
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-filter -v subagent todo examples/run.jsonl | wuu-pretty --color never 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter -v subagent todo examples/run.jsonl | wuu-pretty --color never",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4-5 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-231501-7f3a started
    
    ━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 3
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Exit code 1
      └ ✗ failed (exit code 1)
    [agent-7e21] ▸ grep pattern=total( path=src
      │ src/checkout.js:18
      │ src/api.js:7
      └ ✓ completed
    ◆ agent-7e21 turn agent-7e21-turn-0001 completed (sub-agent) · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    ▸ read_file src/cart.js
      │ read src/cart.js
      │ export function total(items) {
      │   return items.slice(0, -1).length;
      │ }
      └ ✓ completed
    ▸ edit_file src/cart.js
      │ edit src/cart.js
      └ ✓ completed
      ✎ edit src/cart.js
    $ npm run build
      │ Running in background as process 4242
      └ ✓ completed
    The total dropped the last item; fixed it in src/cart.js.
    ── turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues
    
    ━━ turn 2 · 20261202-231501-7f3a-turn-0002 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    The build finished. Running the tests again.
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run-20261202-231501-7f3a · 2 turns · prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    trace /home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty --full --verbose --width 120 examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --full --verbose --width 120 examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4-5 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=standard · protocol wuu-app-server/v0.1 · max parallel 4
      thread 20261202-231501-7f3a started
    
    ━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    · request_context step 0 block_kind_bytes={"text":5120,"tool_result":2048} block_kind_counts={"text":3,"tool_result":1} block_kinds=["text","tool_result"] content_bytes=7168 dynamic_context_bytes=612 message_bytes=7168 message_count=4 prompt_cache_key=20261202-231501-7f3a stable_prefix=2 stable_prefix_bytes=10422 stable_prefix_hash=sha256:591785b7c1d2 system_bytes=10422 system_hash=sha256:b1946ac92492 system_messages=1 system_sections=[{"key":"base","static":true,"bytes":8120,"hash":"sha256:9a0e3c1d"},{"key":"environment","static":false,"bytes":402}] tool_count=9 tool_schema_bytes=8804 tool_surface_hash=sha256:77e2aa01f00d turn_prefix=1 turn_prefix_bytes=612 turn_prefix_hash=sha256:c0ffee12aa01
    · provider_state step 0 events_emitted=true full_input_items=4 input_items=4 protocol=responses provider=anthropic replay_mode=full transport=sse
    ≡ todo 0/2 done · Fix the failing cart test
      [>] Run the test suite
      [ ] Fix the cart total
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 3
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Exit code 1
      └ ✗ failed (exit code 1)
    ◆ find-callers (explorer) started: Find every caller of total()
    [find-callers] ▸ grep pattern=total( path=src
      │ src/checkout.js:18
      │ src/api.js:7
      └ ✓ completed
    ◆ find-callers turn agent-7e21-turn-0001 completed (sub-agent) · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    ◆ find-callers (explorer) ✓ completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
      │ total() is called from src/checkout.js:18 and src/api.js:7.
    · provider_state step 1 connection_reused=true delta_input_items=2 events_emitted=true full_input_items=6 input_items=2 previous_response_id_used=true protocol=responses provider=anthropic replay_mode=previous_response_id transport=sse
    ▸ read_file src/cart.js
      │ read src/cart.js
      │ export function total(items) {
      │   return items.slice(0, -1).length;
      │ }
      └ ✓ completed
    ▸ edit_file src/cart.js
      │ edit src/cart.js
      └ ✓ completed
      ✎ edit src/cart.js
    $ npm run build
      │ Running in background as process 4242
      └ ✓ completed
    ≡ todo 2/2 done · Fix the failing cart test
      [x] Run the test suite
      [x] Fix the cart total
    The total dropped the last item; fixed it in src/cart.js.
    ── turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues
    
    ━━ turn 2 · 20261202-231501-7f3a-turn-0002 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    · provider_state step 0 connection_reused=true events_emitted=true full_input_items=4 input_items=4 protocol=responses provider=anthropic replay_mode=full transport=sse
    The build finished. Running the tests again.
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run-20261202-231501-7f3a · 2 turns · prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    1 subagent · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    trace /home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty --markdown examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --markdown examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    # wuu run: claude-sonnet-4-5
    
    - **Model:** claude-sonnet-4-5 (anthropic, effort medium)
    - **Workspace:** \`/home/alice/src/shop\`
    - **Permissions:** mode=standard
    - **Thread:** \`20261202-231501-7f3a\` (started)
    
    ## Turn 1 · 20261202-231501-7f3a-turn-0001
    
    **Todo** (0/2 done) — Fix the failing cart test
    
    - [ ] Run the test suite *(in progress)*
    - [ ] Fix the cart total
    
    I'll run the tests first.
    
    \`\`\`console
    $ npm test 2>&1 | tail -n 3
    FAIL test/cart.test.js
      expected 3 items, got 2 <cart>
    Exit code 1
    \`\`\`
    
    **✗ failed (exit code 1)**
    
    ◆ Subagent **find-callers** (explorer) started — Find every caller of total()
    
    *◆ find-callers (sub-agent):*
    
    \`\`\`text
    ▸ grep pattern=total( path=src
    src/checkout.js:18
    src/api.js:7
    \`\`\`
    
    *◆ find-callers turn agent-7e21-turn-0001 completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38 (sub-agent)*
    
    ◆ Subagent **find-callers** (explorer) completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    
    > total() is called from src/checkout.js:18 and src/api.js:7.
    
    \`\`\`text
    ▸ read_file src/cart.js
    read src/cart.js
    export function total(items) {
      return items.slice(0, -1).length;
    }
    \`\`\`
    
    \`\`\`text
    ▸ edit_file src/cart.js
    edit src/cart.js
    \`\`\`
    
    - ✎ edit \`src/cart.js\`
    
    \`\`\`console
    $ npm run build
    Running in background as process 4242
    \`\`\`
    
    **Todo** (2/2 done) — Fix the failing cart test
    
    - [x] Run the test suite
    - [x] Fix the cart total
    
    The total dropped the last item; fixed it in src/cart.js.
    
    *Turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues*
    
    ## Turn 2 · 20261202-231501-7f3a-turn-0002
    
    The build finished. Running the tests again.
    
    \`\`\`console
    $ npm test
    Tests: 42 passed
    \`\`\`
    
    All 42 tests pass now.
    
    *Turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60*
    
    ## Result: ✓ completed
    
    - **Run:** \`run-20261202-231501-7f3a\`, 2 turns
    - **Tokens:** prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    - **Subagents:** 1 subagent, prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    - **Trace:** \`/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl\`
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty examples/ 1`] = `
Object {
  "code": 1,
  "command": "wuu-pretty examples/",
  "stderr": "wuu-pretty: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\\n",
  "stdout": String(
    ━━ examples/busy.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-5 (anthropic) in /home/alice/src/shop
      permissions mode=standard
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    thread_busy: thread 20261202-231501-7f3a has a running turn
    0 turns
    
    ━━ examples/failed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● gpt-5 (openai, effort high) in /home/bob/work/api
      permissions mode=standard
      thread 20261202-224010-9b21 started
    
    ━━ turn 1 · 20261202-224010-9b21-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Deploying with the key from .env.
    ▸ read_file .env
      │ read .env
      │ OPENAI_API_KEY=sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd
      │ DEPLOY_URL=https://api.example.com/deploy
      └ ✓ completed
    $ curl -sf -H 'Authorization: [REDACTED] [REDACTED]' https://api.example.com/deploy
      │ curl: (6) Could not resolve host: api.example.com
      │ Exit code 6
      └ ✗ failed (exit code 6)
    ── ✗ turn 1 failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd · prompt 3,000 · output 90
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd
    run run-20261202-224010-9b21 · 1 turn · prompt 3,000 · output 90
    trace /home/alice/.wuu/sessions/20261202-224010-9b21/session-trace.jsonl
    
    ━━ examples/killed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-haiku-4-5 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-233000-e1d2 started
    
    ━━ turn 1 · 20261202-233000-e1d2-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Migrate the database
      [ ] Seed test data
    Running the migration, then seeding.
    ▸ read_file db/migrations/007_carts.sql
      │ read db/migrations/007_carts.sql
      │ ALTER TABLE carts ADD COLUMN total_cents integer;
      └ ✓ completed
    $ npm run migrate
      │ migrated: users, carts, orders
      │ Exit code 0
      └ ✓ completed
    ≡ todo 1/2 done
      [x] Migrate the database
      [>] Seed test data
    $ npm run seed -- --rows 100000
      │ seeding users... done (25000 rows)
      └ no completion (the run was cut)
    ── turn 1 cut off before it ended · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 81
    
    ━━ ✗ no result: the run was cut ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    the input ended without a result event; seen: 1 turn · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 81
    
    ━━ examples/run.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-5 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-231501-7f3a started
    
    ━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done · Fix the failing cart test
      [>] Run the test suite
      [ ] Fix the cart total
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 3
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Exit code 1
      └ ✗ failed (exit code 1)
    ◆ find-callers (explorer) started: Find every caller of total()
    [find-callers] ▸ grep pattern=total( path=src
      │ src/checkout.js:18
      │ src/api.js:7
      └ ✓ completed
    ◆ find-callers turn agent-7e21-turn-0001 completed (sub-agent) · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    ◆ find-callers (explorer) ✓ completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
      │ total() is called from src/checkout.js:18 and src/api.js:7.
    ▸ read_file src/cart.js
      │ read src/cart.js
      │ export function total(items) {
      │   return items.slice(0, -1).length;
      │ }
      └ ✓ completed
    ▸ edit_file src/cart.js
      │ edit src/cart.js
      └ ✓ completed
      ✎ edit src/cart.js
    $ npm run build
      │ Running in background as process 4242
      └ ✓ completed
    ≡ todo 2/2 done · Fix the failing cart test
      [x] Run the test suite
      [x] Fix the cart total
    The total dropped the last item; fixed it in src/cart.js.
    ── turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues
    
    ━━ turn 2 · 20261202-231501-7f3a-turn-0002 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    The build finished. Running the tests again.
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run-20261202-231501-7f3a · 2 turns · prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    1 subagent · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    trace /home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl
    
    ━━ examples/setup-failed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    initialize app-server: start app-server: exec: "wuu-app-server": executable file not found in $PATH
    0 turns
    
    ━━ examples/structured.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● gpt-5 (openai, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-230512-c4d0 started
    
    ━━ turn 1 · 20261202-230512-c4d0-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ▸ glob pattern=src/**/*.test.js
      │ src/cart.test.js
      │ src/api.test.js
      └ ✓ completed
    {"files":["src/cart.test.js","src/api.test.js"],"ok":true}
    ── turn 1 completed · prompt 3,124 (2,100 uncached + 0 cache write + 1,024 cache read, 32.8% cache hit) · output 44
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    structured result {"files":["src/cart.test.js","src/api.test.js"],"ok":true}
    run run-20261202-230512-c4d0 · 1 turn · prompt 3,124 (2,100 uncached + 0 cache write + 1,024 cache read, 32.8% cache hit) · output 44
    trace /home/alice/.wuu/sessions/20261202-230512-c4d0/session-trace.jsonl
    
    ━━ examples/timeout.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-20250514 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-220000-e5f6 started
    
    ━━ turn 1 · 20261202-220000-e5f6-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Refactoring the checkout; running the e2e suite.
    $ npm run test:e2e
      └ no completion (turn ended)
    ── ✗ turn 1 interrupted: timeout · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    
    ━━ ✗ timeout ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    timeout
    run run-20261202-220000-e5f6 · 1 turn · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    trace /home/alice/.wuu/sessions/20261202-220000-e5f6/session-trace.jsonl
    
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
    ● gpt-5 (openai, effort high) in /home/bob/work/api
      permissions mode=standard
      thread 20261202-224010-9b21 started
    
    ━━ turn 1 · 20261202-224010-9b21-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Deploying with the key from .env.
    ▸ read_file .env
      │ read .env
      │ OPENAI_API_KEY=sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd
      │ DEPLOY_URL=https://api.example.com/deploy
      └ ✓ completed
    $ curl -sf -H 'Authorization: [REDACTED] [REDACTED]' https://api.example.com/deploy
      │ curl: (6) Could not resolve host: api.example.com
      │ Exit code 6
      └ ✗ failed (exit code 6)
    ── ✗ turn 1 failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd · prompt 3,000 · output 90
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd
    run run-20261202-224010-9b21 · 1 turn · prompt 3,000 · output 90
    trace /home/alice/.wuu/sessions/20261202-224010-9b21/session-trace.jsonl
    
    ━━ examples/timeout.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-20250514 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-220000-e5f6 started
    
    ━━ turn 1 · 20261202-220000-e5f6-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Refactoring the checkout; running the e2e suite.
    $ npm run test:e2e
      └ no completion (turn ended)
    ── ✗ turn 1 interrupted: timeout · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    
    ━━ ✗ timeout ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    timeout
    run run-20261202-220000-e5f6 · 1 turn · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    trace /home/alice/.wuu/sessions/20261202-220000-e5f6/session-trace.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-pretty.1 EXAMPLES > wuu-pretty examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4-5 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-231501-7f3a started
    
    ━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done · Fix the failing cart test
      [>] Run the test suite
      [ ] Fix the cart total
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 3
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Exit code 1
      └ ✗ failed (exit code 1)
    ◆ find-callers (explorer) started: Find every caller of total()
    [find-callers] ▸ grep pattern=total( path=src
      │ src/checkout.js:18
      │ src/api.js:7
      └ ✓ completed
    ◆ find-callers turn agent-7e21-turn-0001 completed (sub-agent) · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    ◆ find-callers (explorer) ✓ completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
      │ total() is called from src/checkout.js:18 and src/api.js:7.
    ▸ read_file src/cart.js
      │ read src/cart.js
      │ export function total(items) {
      │   return items.slice(0, -1).length;
      │ }
      └ ✓ completed
    ▸ edit_file src/cart.js
      │ edit src/cart.js
      └ ✓ completed
      ✎ edit src/cart.js
    $ npm run build
      │ Running in background as process 4242
      └ ✓ completed
    ≡ todo 2/2 done · Fix the failing cart test
      [x] Run the test suite
      [x] Fix the cart total
    The total dropped the last item; fixed it in src/cart.js.
    ── turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues
    
    ━━ turn 2 · 20261202-231501-7f3a-turn-0002 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    The build finished. Running the tests again.
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run-20261202-231501-7f3a · 2 turns · prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    1 subagent · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    trace /home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl
    
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
    wuu-redact: examples/failed.jsonl:6: key-value
    wuu-redact: examples/failed.jsonl:13: authorization
    wuu-redact: examples/failed.jsonl:16: home
    
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
    wuu-redact: report: 10 redactions in 9 of 16 events
    wuu-redact: report: rule authorization: 1
    wuu-redact: report: rule home: 1
    wuu-redact: report: rule jsonpath: 5
    wuu-redact: report: rule key-value: 1
    wuu-redact: report: rule workspace: 2
    wuu-redact: report: type command_completed: 2
    wuu-redact: report: type command_output_delta: 1
    wuu-redact: report: type command_started: 1
    wuu-redact: report: type result: 1
    wuu-redact: report: type session_configured: 1
    wuu-redact: report: type thread_started: 1
    wuu-redact: report: type tool_output_delta: 1
    wuu-redact: report: type tool_started: 2
    
  ),
  "stdout": String(
    {"arguments":"\\\\u003credacted\\\\u003e","item_id":"20261202-224010-9b21-turn-0001-item-3","name":"read_file","thread_id":"20261202-224010-9b21","turn_id":"20261202-224010-9b21-turn-0001","type":"tool_started"}
    {"arguments":"\\\\u003credacted\\\\u003e","item_id":"20261202-224010-9b21-turn-0001-item-5","name":"bash","thread_id":"20261202-224010-9b21","turn_id":"20261202-224010-9b21-turn-0001","type":"tool_started"}
    
  ),
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
  "stderr": "wuu-result: examples/timeout.jsonl: status timeout: timeout\\n",
  "stdout": "timeout\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result --structured examples/structured.jsonl | jq .files 1`] = `
Object {
  "code": 0,
  "command": "wuu-result --structured examples/structured.jsonl | jq .files",
  "stderr": "",
  "stdout": String(
    [
      "src/cart.test.js",
      "src/api.test.js"
    ]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result examples/failed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/failed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-result: examples/failed.jsonl: status failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd\\n",
  "stdout": String(
    Deploying with the key from .env.
    exit 3
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": String(
    wuu-result: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
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
  "stdout": "The build finished. Running the tests again. All 42 tests pass now.\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-result.1 EXAMPLES > wuu-result examples/setup-failed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/setup-failed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-result: examples/setup-failed.jsonl: status failed: initialize app-server: start app-server: exec: \\"wuu-app-server\\": executable file not found in $PATH\\n",
  "stdout": String(
    
    exit 3
    
  ),
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
    turn_completed\\t3
    total\\t5
    
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
      7 no result event (the producer was killed or the stream was cut, or the
        input was empty)
      8 unknown or missing status   9 --structured: no structured_result
    
    Examples:
      wuu exec --json "fix the tests" | tee run.jsonl | wuu-result
      wuu-result --structured structured.jsonl
      wuu exec --json "..." | wuu-result --tee -o msg.txt | wuu-filter tool
    
    Input and bad-line policy (every wuu-stream tool):
      FILE ...               inputs in order; '-' or none reads stdin; a directory
                             means its *.jsonl and *.jsonl.gz files; gzip input is
                             recognised by its bytes and decompressed
      -f, --follow           keep reading each FILE as it grows (like tail -F);
                             end after the run's result event, or on Ctrl-C
      --strict               stop at the first bad line (exit 1)
      --pass-invalid         hand bad lines on unchanged instead of skipping them
      --max-line-bytes N     longest line accepted (default 32M; K, M, G suffixes)
      -h, --help             show this help and exit
      --version              print the version and exit
    A bad line is reported on stderr as PROG: FILE:LINE: message.
    Exit status: 0 ok, 1 bad data or failed check, 2 usage error or unreadable
    input, 129/130/143 after SIGHUP/SIGINT/SIGTERM.
    
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
    tool_output_delta
    tool_completed
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
  "stderr": "wuu-turns: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\\n",
  "stdout": "{\\"turn_id\\":\\"20261202-233000-e1d2-turn-0001\\",\\"status\\":\\"incomplete\\",\\"tool_calls\\":[{\\"item_id\\":\\"20261202-233000-e1d2-turn-0001-item-3\\",\\"name\\":\\"read_file\\",\\"status\\":\\"completed\\",\\"output_bytes\\":102},{\\"item_id\\":\\"20261202-233000-e1d2-turn-0001-item-5\\",\\"name\\":\\"bash\\",\\"status\\":\\"completed\\",\\"exit_code\\":0,\\"output_bytes\\":43},{\\"item_id\\":\\"20261202-233000-e1d2-turn-0001-item-7\\",\\"name\\":\\"bash\\",\\"status\\":\\"incomplete\\",\\"exit_code\\":null,\\"output_bytes\\":35}]}\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, message, tools: [.tool_calls[].name], usage}' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, message, tools: [.tool_calls[].name], usage}'",
  "stderr": "",
  "stdout": String(
    {"turn_id":"agent-7e21-turn-0001","status":"completed","message":null,"tools":["grep"],"usage":{"input_tokens":420,"cache_creation_tokens":1000,"cache_read_tokens":0,"prompt_tokens":1420,"output_tokens":38,"cache_hit":0}}
    {"turn_id":"20261202-231501-7f3a-turn-0001","status":"completed","message":"I'll run the tests first. The total dropped the last item; fixed it in src/cart.js.","tools":["bash","read_file","edit_file","bash"],"usage":{"input_tokens":3900,"cache_creation_tokens":4096,"cache_read_tokens":4096,"prompt_tokens":12092,"output_tokens":310,"cache_hit":0.33873635461462126}}
    {"turn_id":"20261202-231501-7f3a-turn-0002","status":"completed","message":"The build finished. Running the tests again. All 42 tests pass now.","tools":["bash"],"usage":{"input_tokens":800,"cache_creation_tokens":0,"cache_read_tokens":8192,"prompt_tokens":8992,"output_tokens":60,"cache_hit":0.9110320284697508}}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv'",
  "stderr": "",
  "stdout": String(
    agent-7e21-turn-0001\\tcompleted\\t420
    20261202-231501-7f3a-turn-0001\\tcompleted\\t3900
    20261202-231501-7f3a-turn-0002\\tcompleted\\t800
    20261202-224010-9b21-turn-0001\\tfailed\\t3000
    20261202-220000-e5f6-turn-0001\\tinterrupted\\t4000
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-turns.1 EXAMPLES > wuu-turns examples/timeout.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns examples/timeout.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"","max_parallel":4,"model":"claude-sonnet-4-20250514","permissions":{"mode":"standard"},"protocol_version":"wuu-app-server/v0.1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4-20250514","provider":"anthropic","thread_id":"20261202-220000-e5f6","type":"thread_started"}
    {"type":"turn","thread_id":"20261202-220000-e5f6","turn_id":"20261202-220000-e5f6-turn-0001","status":"interrupted","error":null,"reason":"timeout","awaiting_auto_continuation":null,"trace_path":null,"subagent":false,"message":"Refactoring the checkout; running the e2e suite.","message_source":"deltas","tool_calls":[{"item_id":"20261202-220000-e5f6-turn-0001-item-3","name":"bash","status":"incomplete","exit_code":null,"output_bytes":0}],"files_changed":[],"todo":null,"usage":{"input_tokens":4000,"cache_creation_tokens":0,"cache_read_tokens":3000,"prompt_tokens":7000,"output_tokens":200,"cache_hit":0.42857142857142855},"completed_tokens":null,"event_counts":{"turn_started":1,"agent_message_delta":2,"tool_started":1,"command_started":1,"usage_updated":1,"turn_interrupted":1}}
    {"error":"timeout","final_message":"Refactoring the checkout; running the e2e suite.","run_id":"run-20261202-220000-e5f6","status":"timeout","thread_id":"20261202-220000-e5f6","trace_path":"/home/alice/.wuu/sessions/20261202-220000-e5f6/session-trace.jsonl","turn_id":"20261202-220000-e5f6-turn-0001","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --by thread,model --breakdown --csv examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --by thread,model --breakdown --csv examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": String(
    kind,thread_id,model,agent,breakdown_model,turns,agents,input_tokens,cache_creation_tokens,cache_read_tokens,prompt_tokens,output_tokens,cache_hit_ratio,cost_usd,date_source
    row,,claude-sonnet-4-5,main,,0,0,0,0,0,0,0,,0,mtime
    model,,claude-sonnet-4-5,main,claude-sonnet-4-5,0,0,0,0,0,0,0,,0,mtime
    row,20261202-224010-9b21,gpt-5,main,,1,0,3000,0,0,3000,90,0,0.00465,session_id
    model,20261202-224010-9b21,gpt-5,main,gpt-5,1,0,3000,0,0,3000,90,0,0.00465,session_id
    row,20261202-233000-e1d2,claude-haiku-4-5,main,,1,0,1300,2048,0,3348,81,0,0.004265,session_id
    model,20261202-233000-e1d2,claude-haiku-4-5,main,claude-haiku-4-5,1,0,1300,2048,0,3348,81,0,0.004265,session_id
    row,20261202-231501-7f3a,claude-sonnet-4-5,main,,2,0,4700,4096,12288,21084,370,0.58281161,0.0386964,session_id
    model,20261202-231501-7f3a,claude-sonnet-4-5,main,claude-sonnet-4-5,2,0,4700,4096,12288,21084,370,0.58281161,0.0386964,session_id
    row,20261202-231501-7f3a,claude-sonnet-4-5,subagents,,0,1,420,1000,0,1420,38,0,0.00558,session_id
    model,20261202-231501-7f3a,claude-sonnet-4-5,subagents,claude-sonnet-4-5,0,1,420,1000,0,1420,38,0,0.00558,session_id
    row,,unknown,main,,0,0,0,0,0,0,0,,0,mtime
    model,,unknown,main,unknown,0,0,0,0,0,0,0,,0,mtime
    row,20261202-230512-c4d0,gpt-5,main,,1,0,2100,0,1024,3124,44,0.327784891,0.003193,session_id
    model,20261202-230512-c4d0,gpt-5,main,gpt-5,1,0,2100,0,1024,3124,44,0.327784891,0.003193,session_id
    row,20261202-220000-e5f6,claude-sonnet-4-20250514,main,,1,0,4000,0,3000,7000,200,0.428571428,0.0159,session_id
    model,20261202-220000-e5f6,claude-sonnet-4-20250514,main,claude-sonnet-4-20250514,1,0,4000,0,3000,7000,200,0.428571428,0.0159,session_id
    total,,,main,,6,0,15100,6144,16312,37556,785,0.434338055,0.0667044,mtime+session_id
    total,,,subagents,,0,1,420,1000,0,1420,38,0,0.00558,session_id
    total,,,all,,6,1,15520,7144,16312,38976,823,0.418513957,0.0722844,mtime+session_id
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == "total") | .all' 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == \\"total\\") | .all'",
  "stderr": "",
  "stdout": "{\\"turns\\":2,\\"agents\\":1,\\"input_tokens\\":5120,\\"cache_creation_tokens\\":5096,\\"cache_read_tokens\\":12288,\\"output_tokens\\":408,\\"prompt_tokens\\":22504,\\"cache_hit_ratio\\":0.54603626,\\"cost_usd\\":0.0442764,\\"date_source\\":\\"session_id\\"}\\n",
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --merge --table <(wuu-usage --json examples/run.jsonl) <(wuu-usage --json examples/timeout.jsonl) 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --merge --table <(wuu-usage --json examples/run.jsonl) <(wuu-usage --json examples/timeout.jsonl)",
  "stderr": "",
  "stdout": String(
    THREAD                RUN                       FILE                    AGENT      TURNS  AGENTS  INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    --------------------  ------------------------  ----------------------  ---------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl      main           2       0  4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl      subagents      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    20261202-220000-e5f6  run-20261202-220000-e5f6  examples/timeout.jsonl  main           1       0  4,000            0       3,000   7,000     200      42.9%  $0.0159
    --------------------  ------------------------  ----------------------  ---------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    TOTAL                                                                   main           3       0  8,700        4,096      15,288  28,084     570      54.4%  $0.0546
    TOTAL                                                                   subagents      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL                                                                   all            3       1  9,120        5,096      15,288  29,504     608      51.8%  $0.0602
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --table --by day --timezone UTC examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table --by day --timezone UTC examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    DAY         AGENT      TURNS  AGENTS  INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    ----------  ---------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    2026-12-02  main           2       0  4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    2026-12-02  subagents      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    ----------  ---------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    TOTAL       main           2       0  4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    TOTAL       subagents      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL       all            2       1  5,120        5,096      12,288  22,504     408      54.6%  $0.0443
    
    Days in UTC: 1 run dated by their session id.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --table --by turn examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table --by turn examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    THREAD                RUN                       TURN                            MODEL              FILE                AGENT       TURNS  AGENTS  INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    --------------------  ------------------------  ------------------------------  -----------------  ------------------  ----------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    20261202-231501-7f3a  run-20261202-231501-7f3a  20261202-231501-7f3a-turn-0001  claude-sonnet-4-5  examples/run.jsonl  main            1       0  3,900        4,096       4,096  12,092     310      33.9%  $0.0329
    20261202-231501-7f3a  run-20261202-231501-7f3a  -                               claude-sonnet-4-5  examples/run.jsonl  agent-7e21      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    20261202-231501-7f3a  run-20261202-231501-7f3a  20261202-231501-7f3a-turn-0002  claude-sonnet-4-5  examples/run.jsonl  main            1       0    800            0       8,192   8,992      60      91.1%  $0.0058
    --------------------  ------------------------  ------------------------------  -----------------  ------------------  ----------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    TOTAL                                                                                                                  main            2       0  4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    TOTAL                                                                                                                  subagents       0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL                                                                                                                  all             2       1  5,120        5,096      12,288  22,504     408      54.6%  $0.0443
    
  ),
}
`

exports[`test/docs.test.ts > TAP > man/wuu-usage.1 EXAMPLES > wuu-usage --table examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": String(
    THREAD                RUN                       FILE                         AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    --------------------  ------------------------  ---------------------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    -                     -                         examples/busy.jsonl          main           0       0       0            0           0       0       0          -  $0.0000
    20261202-224010-9b21  run-20261202-224010-9b21  examples/failed.jsonl        main           1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    20261202-233000-e1d2  (no result)               examples/killed.jsonl        main           1       0   1,300        2,048           0   3,348      81       0.0%  $0.0043
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl           main           2       0   4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl           subagents      0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    -                     -                         examples/setup-failed.jsonl  main           0       0       0            0           0       0       0          -  $0.0000
    20261202-230512-c4d0  run-20261202-230512-c4d0  examples/structured.jsonl    main           1       0   2,100            0       1,024   3,124      44      32.8%  $0.0032
    20261202-220000-e5f6  run-20261202-220000-e5f6  examples/timeout.jsonl       main           1       0   4,000            0       3,000   7,000     200      42.9%  $0.0159
    --------------------  ------------------------  ---------------------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL                                                                        main           6       0  15,100        6,144      16,312  37,556     785      43.4%  $0.0667
    TOTAL                                                                        subagents      0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL                                                                        all            6       1  15,520        7,144      16,312  38,976     823      41.9%  $0.0723
    
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
    ● claude-haiku-4-5 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-233000-e1d2 started
    
    ━━ turn 1 · 20261202-233000-e1d2-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Migrate the database
      [ ] Seed test data
    Running the migration, then seeding.
    ▸ read_file db/migrations/007_carts.sql
      │ read db/migrations/007_carts.sql
      │ ALTER TABLE carts ADD COLUMN total_cents integer;
      └ ✓ completed
    $ npm run migrate
      │ migrated: users, carts, orders
      │ Exit code 0
      └ ✓ completed
    ≡ todo 1/2 done
      [x] Migrate the database
      [>] Seed test data
    $ npm run seed -- --rows 100000
      └ no completion (the run was cut)
    ── turn 1 cut off before it ended · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 70
    
    ━━ ✗ no result: the run was cut ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    the input ended without a result event; seen: 1 turn · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 70
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > ls examples/*.jsonl | xargs -P4 -n 50 sh -c 'mkdir -p parts && wuu-usage --json "$@" > "$(mktemp parts/part.XXXXXX.jsonl)"' sh 1`] = `
Object {
  "code": 0,
  "command": "ls examples/*.jsonl | xargs -P4 -n 50 sh -c 'mkdir -p parts && wuu-usage --json \\"$@\\" > \\"$(mktemp parts/part.XXXXXX.jsonl)\\"' sh",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate --check examples/run.jsonl > /dev/null 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate --check examples/run.jsonl > /dev/null",
  "stderr": "",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .status, .output, .output_truncated_bytes]' 1`] = `
Object {
  "code": 1,
  "command": "wuu-accumulate --max-output-bytes 16 examples/killed.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .status, .output, .output_truncated_bytes]'",
  "stderr": "wuu-accumulate: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\\n",
  "stdout": String(
    ["20261202-233000-e1d2-turn-0001-item-3","completed","{\\\\"contents.sql\\\\"}",86]
    ["20261202-233000-e1d2-turn-0001-item-5","completed","migrated code 0\\\\n",27]
    ["20261202-233000-e1d2-turn-0001-item-7","incomplete","seeding 0 rows)\\\\n",19]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate examples/run.jsonl | jq -c 'select(.type == "tool_call") | [.item_id, .name, .status, .output_bytes]' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -c 'select(.type == \\"tool_call\\") | [.item_id, .name, .status, .output_bytes]'",
  "stderr": "",
  "stdout": String(
    ["20261202-231501-7f3a-turn-0001-item-3","bash","completed",68]
    ["agent-7e21-turn-0001-item-2","grep","completed",32]
    ["20261202-231501-7f3a-turn-0001-item-5","read_file","completed",107]
    ["20261202-231501-7f3a-turn-0001-item-7","edit_file","completed",170]
    ["20261202-231501-7f3a-turn-0001-item-9","bash","completed",38]
    ["20261202-231501-7f3a-turn-0002-item-3","bash","completed",17]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate examples/run.jsonl | jq -r 'select(.type == "agent_message") | .message' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | jq -r 'select(.type == \\"agent_message\\") | .message'",
  "stderr": "",
  "stdout": String(
    I'll run the tests first. The total dropped the last item; fixed it in src/cart.js.
    The build finished. Running the tests again. All 42 tests pass now.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-accumulate examples/run.jsonl | wuu-filter tool_call --where '$.exit_code!=0' --where '$.exit_code!=null' --where '$.exit_code' | jq -r '"\\(.exit_code) \\(.command)"' 1`] = `
Object {
  "code": 0,
  "command": "wuu-accumulate examples/run.jsonl | wuu-filter tool_call --where '$.exit_code!=0' --where '$.exit_code!=null' --where '$.exit_code' | jq -r '\\"\\\\(.exit_code) \\\\(.command)\\"'",
  "stderr": "",
  "stdout": "1 npm test 2>&1 | tail -n 3\\n",
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
  "code": 0,
  "command": "wuu-check --json examples/killed.jsonl | jq -r .rule",
  "stderr": "wuu-check: checked 1 file: 0 errors, 2 warnings\\n",
  "stdout": String(
    cut-line
    missing-result
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check --max-warnings 0 examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-check --max-warnings 0 examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-check: checked 1 file: 0 errors, 2 warnings (more than --max-warnings 0)\\n",
  "stdout": String(
    examples/killed.jsonl:25: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
    examples/killed.jsonl:25: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    exit 1
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check examples 1`] = `
Object {
  "code": 0,
  "command": "wuu-check examples",
  "stderr": "wuu-check: checked 7 files: 0 errors, 2 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:25: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
    examples/killed.jsonl:25: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-check examples/killed.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-check examples/killed.jsonl",
  "stderr": "wuu-check: checked 1 file: 0 errors, 2 warnings\\n",
  "stdout": String(
    examples/killed.jsonl:25: cut-line: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
    examples/killed.jsonl:25: missing-result: the stream ended without a result event (the producer was killed or the stream was cut)
    
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
    file_changed\\t1
    request_context\\t1
    result\\t1
    session_configured\\t1
    subagent_completed\\t1
    subagent_started\\t1
    thread_started\\t1
    todo_updated\\t2
    turn_started\\t2
    command_completed\\t3
    command_output_delta\\t3
    command_started\\t3
    provider_state\\t3
    turn_completed\\t3
    usage_updated\\t5
    tool_completed\\t6
    tool_output_delta\\t6
    tool_started\\t6
    agent_message_delta\\t7
    total\\t56
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --count share.jsonl | tail -1 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --count share.jsonl | tail -1",
  "stderr": "",
  "stdout": "total\\t16\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --thread agent-7e21 examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --thread agent-7e21 examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"cache_creation_tokens":1000,"cache_read_tokens":0,"input_tokens":300,"output_tokens":12,"thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"usage_updated"}
    {"arguments":"{\\\\"pattern\\\\":\\\\"total(\\\\",\\\\"path\\\\":\\\\"src\\\\"}","item_id":"agent-7e21-turn-0001-item-2","name":"grep","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_started"}
    {"delta":"src/checkout.js:18\\\\nsrc/api.js:7\\\\n","item_id":"agent-7e21-turn-0001-item-2","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"agent-7e21-turn-0001-item-2","name":"grep","status":"completed","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_completed"}
    {"cache_creation_tokens":1000,"cache_read_tokens":0,"input_tokens":420,"output_tokens":38,"thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":420,"output_tokens":38,"thread_id":"agent-7e21","trace_path":"/home/alice/.wuu/sessions/agent-7e21/session-trace.jsonl","turn_id":"agent-7e21-turn-0001","type":"turn_completed"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --turn 20261202-231501-7f3a-turn-0002 --keep-result tool examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --turn 20261202-231501-7f3a-turn-0002 --keep-result tool examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_completed"}
    {"final_message":"The build finished. Running the tests again. All 42 tests pass now.","run_id":"run-20261202-231501-7f3a","status":"completed","thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0002","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --where '$.arguments.command~=^npm' tool_started examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.arguments.command~=^npm' tool_started examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --where '$.cache_read_tokens>0' usage_updated examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.cache_read_tokens>0' usage_updated examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"cache_creation_tokens":4096,"cache_read_tokens":4096,"input_tokens":3900,"output_tokens":310,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"usage_updated"}
    {"cache_creation_tokens":0,"cache_read_tokens":8192,"input_tokens":800,"output_tokens":60,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"usage_updated"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter --where '$.name==bash' tool_started examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter --where '$.name==bash' tool_started examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-filter -v diag message examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-filter -v diag message examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"medium","max_parallel":4,"model":"claude-sonnet-4-5","permissions":{"mode":"standard"},"protocol_version":"wuu-app-server/v0.1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4-5","provider":"anthropic","thread_id":"20261202-231501-7f3a","type":"thread_started"}
    {"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"turn_started"}
    {"thread_id":"20261202-231501-7f3a","todo":{"explanation":"Fix the failing cart test","todos":[{"content":"Run the test suite","status":"in_progress"},{"content":"Fix the cart total","status":"pending"}]},"turn_id":"20261202-231501-7f3a-turn-0001","type":"todo_updated"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\nExit code 1\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","delta":"FAIL test/cart.test.js\\\\n  expected 3 items, got 2 \\\\u003ccart\\\\u003e\\\\nExit code 1\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test 2\\\\u003e\\\\u00261 | tail -n 3\\\\"}","command":"npm test 2\\\\u003e\\\\u00261 | tail -n 3","error":"","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_completed"}
    {"cache_creation_tokens":4096,"cache_read_tokens":0,"input_tokens":1800,"output_tokens":95,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"usage_updated"}
    {"agent_id":"agent-7e21","agent_path":"20261202-231501-7f3a/agent-7e21","agent_profile":"default","agent_type":"explorer","cache_creation_tokens":0,"cache_read_tokens":0,"description":"Find every caller of total()","error":"","input_tokens":0,"output_tokens":0,"parent_id":"20261202-231501-7f3a","result":"","result_bytes":0,"result_path":"","result_truncated":false,"status":"running","task_name":"find-callers","thread_id":"20261202-231501-7f3a","type":"subagent_started"}
    {"cache_creation_tokens":1000,"cache_read_tokens":0,"input_tokens":300,"output_tokens":12,"thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"usage_updated"}
    {"arguments":"{\\\\"pattern\\\\":\\\\"total(\\\\",\\\\"path\\\\":\\\\"src\\\\"}","item_id":"agent-7e21-turn-0001-item-2","name":"grep","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_started"}
    {"delta":"src/checkout.js:18\\\\nsrc/api.js:7\\\\n","item_id":"agent-7e21-turn-0001-item-2","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"agent-7e21-turn-0001-item-2","name":"grep","status":"completed","thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"tool_completed"}
    {"cache_creation_tokens":1000,"cache_read_tokens":0,"input_tokens":420,"output_tokens":38,"thread_id":"agent-7e21","turn_id":"agent-7e21-turn-0001","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":420,"output_tokens":38,"thread_id":"agent-7e21","trace_path":"/home/alice/.wuu/sessions/agent-7e21/session-trace.jsonl","turn_id":"agent-7e21-turn-0001","type":"turn_completed"}
    {"agent_id":"agent-7e21","agent_path":"20261202-231501-7f3a/agent-7e21","agent_profile":"default","agent_type":"explorer","cache_creation_tokens":1000,"cache_read_tokens":0,"description":"Find every caller of total()","error":"","input_tokens":420,"output_tokens":38,"parent_id":"20261202-231501-7f3a","result":"total() is called from src/checkout.js:18 and src/api.js:7.","result_bytes":59,"result_path":"","result_truncated":false,"status":"completed","task_name":"find-callers","thread_id":"20261202-231501-7f3a","type":"subagent_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-5","name":"read_file","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"delta":"{\\\\"content\\\\":\\\\"export function total(items) {\\\\\\\\n  return items.slice(0, -1).length;\\\\\\\\n}\\\\\\\\n\\\\",\\\\"path\\\\":\\\\"src/cart.js\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-5","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-5","name":"read_file","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"old_string\\\\":\\\\"items.slice(0, -1).length\\\\",\\\\"new_string\\\\":\\\\"items.length\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-7","name":"edit_file","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"delta":"{\\\\"action\\\\":\\\\"edit\\\\",\\\\"new_file_sha\\\\":\\\\"sha256:b71c0e55\\\\",\\\\"old_file_sha\\\\":\\\\"sha256:4d9a6f02\\\\",\\\\"path\\\\":\\\\"src/cart.js\\\\",\\\\"workspace_revision\\\\":\\\\"git:3f9c2a1b7d4e:worktree:8d0c5e2f41a7b390\\\\"}","item_id":"20261202-231501-7f3a-turn-0001-item-7","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-7","name":"edit_file","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"action":"edit","item_id":"20261202-231501-7f3a-turn-0001-item-7","new_file_sha":"sha256:b71c0e55","old_file_sha":"sha256:4d9a6f02","path":"src/cart.js","thread_id":"20261202-231501-7f3a","tool_name":"edit_file","turn_id":"20261202-231501-7f3a-turn-0001","type":"file_changed","workspace_revision":"git:3f9c2a1b7d4e:worktree:8d0c5e2f41a7b390"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"delta":"Running in background as process 4242\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-9","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","delta":"Running in background as process 4242\\\\n","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm run build\\\\",\\\\"run_in_background\\\\":true}","command":"npm run build","error":"","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_completed"}
    {"cache_creation_tokens":4096,"cache_read_tokens":4096,"input_tokens":3900,"output_tokens":310,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"usage_updated"}
    {"thread_id":"20261202-231501-7f3a","todo":{"explanation":"Fix the failing cart test","todos":[{"content":"Run the test suite","status":"completed"},{"content":"Fix the cart total","status":"completed"}]},"turn_id":"20261202-231501-7f3a-turn-0001","type":"todo_updated"}
    {"awaiting_auto_continuation":true,"input_tokens":3900,"output_tokens":310,"thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0001","type":"turn_completed"}
    {"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"turn_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_started"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_started"}
    {"delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_output_delta"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","delta":"Tests: 42 passed\\\\n","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_output_delta"}
    {"error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"tool_completed"}
    {"arguments":"{\\\\"command\\\\":\\\\"npm test\\\\"}","command":"npm test","error":"","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","status":"completed","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_completed"}
    {"cache_creation_tokens":0,"cache_read_tokens":8192,"input_tokens":800,"output_tokens":60,"thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"usage_updated"}
    {"awaiting_auto_continuation":false,"input_tokens":800,"output_tokens":60,"thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0002","type":"turn_completed"}
    {"final_message":"The build finished. Running the tests again. All 42 tests pass now.","run_id":"run-20261202-231501-7f3a","status":"completed","thread_id":"20261202-231501-7f3a","trace_path":"/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl","turn_id":"20261202-231501-7f3a-turn-0002","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-import --from gemini test/fixtures/import/gemini/shell.jsonl | wuu-usage 1`] = `
Object {
  "code": 2,
  "command": "wuu-import --from gemini test/fixtures/import/gemini/shell.jsonl | wuu-usage",
  "stderr": "wuu-import: test/fixtures/import/gemini/shell.jsonl: No such file or directory\\n",
  "stdout": String(
    kind\\tthread_id\\trun_id\\tfile\\tagent\\tturns\\tagents\\tinput_tokens\\tcache_creation_tokens\\tcache_read_tokens\\tprompt_tokens\\toutput_tokens\\tcache_hit_ratio\\tcost_usd\\tdate_source
    total\\t\\t\\t\\tmain\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t\\t0\\t
    total\\t\\t\\t\\tsubagents\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t\\t0\\t
    total\\t\\t\\t\\tall\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t\\t0\\t
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-import examples/import/codex-exec.ndjson | wuu-check 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/import/codex-exec.ndjson | wuu-check",
  "stderr": "wuu-check: checked 1 file: 0 errors, 0 warnings\\n",
  "stdout": "",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-import examples/import/codex-exec.ndjson | wuu-result 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/import/codex-exec.ndjson | wuu-result",
  "stderr": "",
  "stdout": "The build check failed with exit code 3.\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-import examples/import/codex-exec.ndjson | wuu-usage --by thread 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/import/codex-exec.ndjson | wuu-usage --by thread",
  "stderr": "wuu-usage: warning: no price for model unknown: its cost is shown as unknown (add it with --pricing FILE)\\n",
  "stdout": String(
    kind\\tthread_id\\tagent\\tturns\\tagents\\tinput_tokens\\tcache_creation_tokens\\tcache_read_tokens\\tprompt_tokens\\toutput_tokens\\tcache_hit_ratio\\tcost_usd\\tdate_source
    row\\t01a23b53-1d98-7090-9011-268b70998b5e\\tmain\\t1\\t0\\t5726\\t0\\t10624\\t16350\\t115\\t0.649785932\\t\\tnow
    total\\t\\tmain\\t1\\t0\\t5726\\t0\\t10624\\t16350\\t115\\t0.649785932\\t\\tnow
    total\\t\\tsubagents\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t\\t0\\t
    total\\t\\tall\\t1\\t0\\t5726\\t0\\t10624\\t16350\\t115\\t0.649785932\\t\\tnow
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-import examples/run.jsonl | wuu-filter --count 1`] = `
Object {
  "code": 0,
  "command": "wuu-import examples/run.jsonl | wuu-filter --count",
  "stderr": "",
  "stdout": String(
    session_configured\\t1
    thread_started\\t1
    turn_started\\t2
    request_context\\t1
    provider_state\\t3
    todo_updated\\t2
    agent_message_delta\\t7
    tool_started\\t6
    command_started\\t3
    tool_output_delta\\t6
    command_output_delta\\t3
    tool_completed\\t6
    command_completed\\t3
    usage_updated\\t5
    subagent_started\\t1
    turn_completed\\t3
    subagent_completed\\t1
    file_changed\\t1
    result\\t1
    total\\t56
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty --full --verbose --width 120 examples/failed.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --full --verbose --width 120 examples/failed.jsonl",
  "stderr": "",
  "stdout": String(
    ● gpt-5 (openai, effort high) in /home/bob/work/api
      permissions mode=standard · protocol wuu-app-server/v0.1 · max parallel 4
      thread 20261202-224010-9b21 started
    
    ━━ turn 1 · 20261202-224010-9b21-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Deploying with the key from .env.
    ▸ read_file .env
      │ read .env
      │ OPENAI_API_KEY=sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd
      │ DEPLOY_URL=https://api.example.com/deploy
      └ ✓ completed
    $ curl -sf -H 'Authorization: [REDACTED] [REDACTED]' https://api.example.com/deploy
      │ curl: (6) Could not resolve host: api.example.com
      │ Exit code 6
      └ ✗ failed (exit code 6)
    ── ✗ turn 1 failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd · prompt 3,000 · output 90
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd
    run run-20261202-224010-9b21 · 1 turn · prompt 3,000 · output 90
    trace /home/alice/.wuu/sessions/20261202-224010-9b21/session-trace.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty --markdown examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty --markdown examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    # wuu run: claude-sonnet-4-5
    
    - **Model:** claude-sonnet-4-5 (anthropic, effort medium)
    - **Workspace:** \`/home/alice/src/shop\`
    - **Permissions:** mode=standard
    - **Thread:** \`20261202-231501-7f3a\` (started)
    
    ## Turn 1 · 20261202-231501-7f3a-turn-0001
    
    **Todo** (0/2 done) — Fix the failing cart test
    
    - [ ] Run the test suite *(in progress)*
    - [ ] Fix the cart total
    
    I'll run the tests first.
    
    \`\`\`console
    $ npm test 2>&1 | tail -n 3
    FAIL test/cart.test.js
      expected 3 items, got 2 <cart>
    Exit code 1
    \`\`\`
    
    **✗ failed (exit code 1)**
    
    ◆ Subagent **find-callers** (explorer) started — Find every caller of total()
    
    *◆ find-callers (sub-agent):*
    
    \`\`\`text
    ▸ grep pattern=total( path=src
    src/checkout.js:18
    src/api.js:7
    \`\`\`
    
    *◆ find-callers turn agent-7e21-turn-0001 completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38 (sub-agent)*
    
    ◆ Subagent **find-callers** (explorer) completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    
    > total() is called from src/checkout.js:18 and src/api.js:7.
    
    \`\`\`text
    ▸ read_file src/cart.js
    read src/cart.js
    export function total(items) {
      return items.slice(0, -1).length;
    }
    \`\`\`
    
    \`\`\`text
    ▸ edit_file src/cart.js
    edit src/cart.js
    \`\`\`
    
    - ✎ edit \`src/cart.js\`
    
    \`\`\`console
    $ npm run build
    Running in background as process 4242
    \`\`\`
    
    **Todo** (2/2 done) — Fix the failing cart test
    
    - [x] Run the test suite
    - [x] Fix the cart total
    
    The total dropped the last item; fixed it in src/cart.js.
    
    *Turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues*
    
    ## Turn 2 · 20261202-231501-7f3a-turn-0002
    
    The build finished. Running the tests again.
    
    \`\`\`console
    $ npm test
    Tests: 42 passed
    \`\`\`
    
    All 42 tests pass now.
    
    *Turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60*
    
    ## Result: ✓ completed
    
    - **Run:** \`run-20261202-231501-7f3a\`, 2 turns
    - **Tokens:** prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    - **Subagents:** 1 subagent, prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    - **Trace:** \`/home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl\`
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty examples/ 1`] = `
Object {
  "code": 1,
  "command": "wuu-pretty examples/",
  "stderr": "wuu-pretty: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\\n",
  "stdout": String(
    ━━ examples/busy.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-5 (anthropic) in /home/alice/src/shop
      permissions mode=standard
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    thread_busy: thread 20261202-231501-7f3a has a running turn
    0 turns
    
    ━━ examples/failed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● gpt-5 (openai, effort high) in /home/bob/work/api
      permissions mode=standard
      thread 20261202-224010-9b21 started
    
    ━━ turn 1 · 20261202-224010-9b21-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Deploying with the key from .env.
    ▸ read_file .env
      │ read .env
      │ OPENAI_API_KEY=sk-proj-Q7x2Lm9Vb4Nc8Rt1Wy6Zp3Kd
      │ DEPLOY_URL=https://api.example.com/deploy
      └ ✓ completed
    $ curl -sf -H 'Authorization: [REDACTED] [REDACTED]' https://api.example.com/deploy
      │ curl: (6) Could not resolve host: api.example.com
      │ Exit code 6
      └ ✗ failed (exit code 6)
    ── ✗ turn 1 failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd · prompt 3,000 · output 90
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd
    run run-20261202-224010-9b21 · 1 turn · prompt 3,000 · output 90
    trace /home/alice/.wuu/sessions/20261202-224010-9b21/session-trace.jsonl
    
    ━━ examples/killed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-haiku-4-5 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-233000-e1d2 started
    
    ━━ turn 1 · 20261202-233000-e1d2-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done
      [>] Migrate the database
      [ ] Seed test data
    Running the migration, then seeding.
    ▸ read_file db/migrations/007_carts.sql
      │ read db/migrations/007_carts.sql
      │ ALTER TABLE carts ADD COLUMN total_cents integer;
      └ ✓ completed
    $ npm run migrate
      │ migrated: users, carts, orders
      │ Exit code 0
      └ ✓ completed
    ≡ todo 1/2 done
      [x] Migrate the database
      [>] Seed test data
    $ npm run seed -- --rows 100000
      │ seeding users... done (25000 rows)
      └ no completion (the run was cut)
    ── turn 1 cut off before it ended · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 81
    
    ━━ ✗ no result: the run was cut ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    the input ended without a result event; seen: 1 turn · prompt 3,348 (1,300 uncached + 2,048 cache write + 0 cache read, 0.0% cache hit) · output 81
    
    ━━ examples/run.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-5 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-231501-7f3a started
    
    ━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done · Fix the failing cart test
      [>] Run the test suite
      [ ] Fix the cart total
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 3
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Exit code 1
      └ ✗ failed (exit code 1)
    ◆ find-callers (explorer) started: Find every caller of total()
    [find-callers] ▸ grep pattern=total( path=src
      │ src/checkout.js:18
      │ src/api.js:7
      └ ✓ completed
    ◆ find-callers turn agent-7e21-turn-0001 completed (sub-agent) · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    ◆ find-callers (explorer) ✓ completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
      │ total() is called from src/checkout.js:18 and src/api.js:7.
    ▸ read_file src/cart.js
      │ read src/cart.js
      │ export function total(items) {
      │   return items.slice(0, -1).length;
      │ }
      └ ✓ completed
    ▸ edit_file src/cart.js
      │ edit src/cart.js
      └ ✓ completed
      ✎ edit src/cart.js
    $ npm run build
      │ Running in background as process 4242
      └ ✓ completed
    ≡ todo 2/2 done · Fix the failing cart test
      [x] Run the test suite
      [x] Fix the cart total
    The total dropped the last item; fixed it in src/cart.js.
    ── turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues
    
    ━━ turn 2 · 20261202-231501-7f3a-turn-0002 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    The build finished. Running the tests again.
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run-20261202-231501-7f3a · 2 turns · prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    1 subagent · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    trace /home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl
    
    ━━ examples/setup-failed.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    
    ━━ ✗ failed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    initialize app-server: start app-server: exec: "wuu-app-server": executable file not found in $PATH
    0 turns
    
    ━━ examples/structured.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● gpt-5 (openai, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-230512-c4d0 started
    
    ━━ turn 1 · 20261202-230512-c4d0-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ▸ glob pattern=src/**/*.test.js
      │ src/cart.test.js
      │ src/api.test.js
      └ ✓ completed
    {"files":["src/cart.test.js","src/api.test.js"],"ok":true}
    ── turn 1 completed · prompt 3,124 (2,100 uncached + 0 cache write + 1,024 cache read, 32.8% cache hit) · output 44
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    structured result {"files":["src/cart.test.js","src/api.test.js"],"ok":true}
    run run-20261202-230512-c4d0 · 1 turn · prompt 3,124 (2,100 uncached + 0 cache write + 1,024 cache read, 32.8% cache hit) · output 44
    trace /home/alice/.wuu/sessions/20261202-230512-c4d0/session-trace.jsonl
    
    ━━ examples/timeout.jsonl ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ● claude-sonnet-4-20250514 (anthropic) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-220000-e5f6 started
    
    ━━ turn 1 · 20261202-220000-e5f6-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    Refactoring the checkout; running the e2e suite.
    $ npm run test:e2e
      └ no completion (turn ended)
    ── ✗ turn 1 interrupted: timeout · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    
    ━━ ✗ timeout ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    timeout
    run run-20261202-220000-e5f6 · 1 turn · prompt 7,000 (4,000 uncached + 0 cache write + 3,000 cache read, 42.9% cache hit) · output 200
    trace /home/alice/.wuu/sessions/20261202-220000-e5f6/session-trace.jsonl
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-pretty examples/run.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-pretty examples/run.jsonl",
  "stderr": "",
  "stdout": String(
    ● claude-sonnet-4-5 (anthropic, effort medium) in /home/alice/src/shop
      permissions mode=standard
      thread 20261202-231501-7f3a started
    
    ━━ turn 1 · 20261202-231501-7f3a-turn-0001 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    ≡ todo 0/2 done · Fix the failing cart test
      [>] Run the test suite
      [ ] Fix the cart total
    I'll run the tests first.
    $ npm test 2>&1 | tail -n 3
      │ FAIL test/cart.test.js
      │   expected 3 items, got 2 <cart>
      │ Exit code 1
      └ ✗ failed (exit code 1)
    ◆ find-callers (explorer) started: Find every caller of total()
    [find-callers] ▸ grep pattern=total( path=src
      │ src/checkout.js:18
      │ src/api.js:7
      └ ✓ completed
    ◆ find-callers turn agent-7e21-turn-0001 completed (sub-agent) · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    ◆ find-callers (explorer) ✓ completed · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
      │ total() is called from src/checkout.js:18 and src/api.js:7.
    ▸ read_file src/cart.js
      │ read src/cart.js
      │ export function total(items) {
      │   return items.slice(0, -1).length;
      │ }
      └ ✓ completed
    ▸ edit_file src/cart.js
      │ edit src/cart.js
      └ ✓ completed
      ✎ edit src/cart.js
    $ npm run build
      │ Running in background as process 4242
      └ ✓ completed
    ≡ todo 2/2 done · Fix the failing cart test
      [x] Run the test suite
      [x] Fix the cart total
    The total dropped the last item; fixed it in src/cart.js.
    ── turn 1 completed · prompt 12,092 (3,900 uncached + 4,096 cache write + 4,096 cache read, 33.9% cache hit) · output 310 · auto-continues
    
    ━━ turn 2 · 20261202-231501-7f3a-turn-0002 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    The build finished. Running the tests again.
    $ npm test
      │ Tests: 42 passed
      └ ✓ completed
    All 42 tests pass now.
    ── turn 2 completed · prompt 8,992 (800 uncached + 0 cache write + 8,192 cache read, 91.1% cache hit) · output 60
    
    ━━ ✓ completed ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
    run run-20261202-231501-7f3a · 2 turns · prompt 21,084 (4,700 uncached + 4,096 cache write + 12,288 cache read, 58.3% cache hit) · output 370
    1 subagent · prompt 1,420 (420 uncached + 1,000 cache write + 0 cache read, 0.0% cache hit) · output 38
    trace /home/alice/.wuu/sessions/20261202-231501-7f3a/session-trace.jsonl
    
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
    wuu-redact: examples/failed.jsonl:6: key-value
    wuu-redact: examples/failed.jsonl:13: authorization
    wuu-redact: examples/failed.jsonl:16: home
    
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
    wuu-redact: report: 6 redactions in 5 of 16 events
    wuu-redact: report: rule authorization: 2
    wuu-redact: report: rule home: 1
    wuu-redact: report: rule key-value: 1
    wuu-redact: report: rule workspace: 2
    wuu-redact: report: type command_completed: 2
    wuu-redact: report: type result: 1
    wuu-redact: report: type session_configured: 1
    wuu-redact: report: type thread_started: 1
    wuu-redact: report: type tool_output_delta: 1
    
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
    {"arguments":"\\\\u003credacted\\\\u003e","command":"\\\\u003credacted\\\\u003e","item_id":"20261202-231501-7f3a-turn-0001-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"arguments":"\\\\u003credacted\\\\u003e","command":"\\\\u003credacted\\\\u003e","item_id":"20261202-231501-7f3a-turn-0001-item-9","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0001","type":"command_started"}
    {"arguments":"\\\\u003credacted\\\\u003e","command":"\\\\u003credacted\\\\u003e","item_id":"20261202-231501-7f3a-turn-0002-item-3","name":"bash","thread_id":"20261202-231501-7f3a","turn_id":"20261202-231501-7f3a-turn-0002","type":"command_started"}
    
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

exports[`test/docs.test.ts > TAP > README.md commands > wuu-redact examples/failed.jsonl | wuu-filter command_completed 1`] = `
Object {
  "code": 0,
  "command": "wuu-redact examples/failed.jsonl | wuu-filter command_completed",
  "stderr": "",
  "stdout": "{\\"arguments\\":\\"{\\\\\\"command\\\\\\":\\\\\\"curl -sf -H 'Authorization: Bearer \\\\u003csecret:authorization\\\\u003e' https://api.example.com/deploy\\\\\\"}\\",\\"command\\":\\"curl -sf -H 'Authorization: Bearer \\\\u003csecret:authorization\\\\u003e' https://api.example.com/deploy\\",\\"error\\":\\"\\",\\"item_id\\":\\"20261202-224010-9b21-turn-0001-item-5\\",\\"name\\":\\"bash\\",\\"status\\":\\"completed\\",\\"thread_id\\":\\"20261202-224010-9b21\\",\\"turn_id\\":\\"20261202-224010-9b21-turn-0001\\",\\"type\\":\\"command_completed\\"}\\n",
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
  "stderr": "wuu-result: examples/timeout.jsonl: status timeout: timeout\\n",
  "stdout": "timeout\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result --structured examples/structured.jsonl | jq .files 1`] = `
Object {
  "code": 0,
  "command": "wuu-result --structured examples/structured.jsonl | jq .files",
  "stderr": "",
  "stdout": String(
    [
      "src/cart.test.js",
      "src/api.test.js"
    ]
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result examples/failed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/failed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-result: examples/failed.jsonl: status failed: openai: 401 invalid_api_key: Incorrect API key provided: sk-proj-****3Kd\\n",
  "stdout": String(
    Deploying with the key from .env.
    exit 3
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result examples/killed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/killed.jsonl; echo \\"exit $?\\"",
  "stderr": String(
    wuu-result: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)
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
  "stdout": "The build finished. Running the tests again. All 42 tests pass now.\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-result examples/setup-failed.jsonl; echo "exit $?" 1`] = `
Object {
  "code": 0,
  "command": "wuu-result examples/setup-failed.jsonl; echo \\"exit $?\\"",
  "stderr": "wuu-result: examples/setup-failed.jsonl: status failed: initialize app-server: start app-server: exec: \\"wuu-app-server\\": executable file not found in $PATH\\n",
  "stdout": String(
    
    exit 3
    
  ),
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
      accumulate  fold streamed deltas into whole messages and tool calls
      turns       one record per turn: status, message, tool calls, files, usage
      redact      remove secrets and private paths, keep the stream valid
      usage       token usage and cost per turn, run, model, day; subagents apart
      result      print the run's answer and exit with a status that mirrors it
      check       validate a stream against the wire protocol; report every problem
      pretty      render the stream for people: live view, Markdown or HTML
      import      turn Codex, Claude Code and Gemini CLI streams into 'wuu exec --json' events
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
    turn_completed\\t3
    total\\t5
    
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
      7 no result event (the producer was killed or the stream was cut, or the
        input was empty)
      8 unknown or missing status   9 --structured: no structured_result
    
    Examples:
      wuu exec --json "fix the tests" | tee run.jsonl | wuu-result
      wuu-result --structured structured.jsonl
      wuu exec --json "..." | wuu-result --tee -o msg.txt | wuu-filter tool
    
    Input and bad-line policy (every wuu-stream tool):
      FILE ...               inputs in order; '-' or none reads stdin; a directory
                             means its *.jsonl and *.jsonl.gz files; gzip input is
                             recognised by its bytes and decompressed
      -f, --follow           keep reading each FILE as it grows (like tail -F);
                             end after the run's result event, or on Ctrl-C
      --strict               stop at the first bad line (exit 1)
      --pass-invalid         hand bad lines on unchanged instead of skipping them
      --max-line-bytes N     longest line accepted (default 32M; K, M, G suffixes)
      -h, --help             show this help and exit
      --version              print the version and exit
    A bad line is reported on stderr as PROG: FILE:LINE: message.
    Exit status: 0 ok, 1 bad data or failed check, 2 usage error or unreadable
    input, 129/130/143 after SIGHUP/SIGINT/SIGTERM.
    
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
    tool_output_delta
    tool_completed
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
  "stderr": "wuu-turns: examples/killed.jsonl:25: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120)\\n",
  "stdout": "{\\"turn_id\\":\\"20261202-233000-e1d2-turn-0001\\",\\"status\\":\\"incomplete\\",\\"tool_calls\\":[{\\"item_id\\":\\"20261202-233000-e1d2-turn-0001-item-3\\",\\"name\\":\\"read_file\\",\\"status\\":\\"completed\\",\\"output_bytes\\":102},{\\"item_id\\":\\"20261202-233000-e1d2-turn-0001-item-5\\",\\"name\\":\\"bash\\",\\"status\\":\\"completed\\",\\"exit_code\\":0,\\"output_bytes\\":43},{\\"item_id\\":\\"20261202-233000-e1d2-turn-0001-item-7\\",\\"name\\":\\"bash\\",\\"status\\":\\"incomplete\\",\\"exit_code\\":null,\\"output_bytes\\":35}]}\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --only-turns examples/run.jsonl | jq -c '[.tool_calls[] | select(.exit_code != null and .exit_code != 0) | .item_id]' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl | jq -c '[.tool_calls[] | select(.exit_code != null and .exit_code != 0) | .item_id]'",
  "stderr": "",
  "stdout": String(
    []
    ["20261202-231501-7f3a-turn-0001-item-3"]
    []
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, subagent, tools: [.tool_calls[].name], usage}' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl | jq -c '{turn_id, status, subagent, tools: [.tool_calls[].name], usage}'",
  "stderr": "",
  "stdout": String(
    {"turn_id":"agent-7e21-turn-0001","status":"completed","subagent":true,"tools":["grep"],"usage":{"input_tokens":420,"cache_creation_tokens":1000,"cache_read_tokens":0,"prompt_tokens":1420,"output_tokens":38,"cache_hit":0}}
    {"turn_id":"20261202-231501-7f3a-turn-0001","status":"completed","subagent":false,"tools":["bash","read_file","edit_file","bash"],"usage":{"input_tokens":3900,"cache_creation_tokens":4096,"cache_read_tokens":4096,"prompt_tokens":12092,"output_tokens":310,"cache_hit":0.33873635461462126}}
    {"turn_id":"20261202-231501-7f3a-turn-0002","status":"completed","subagent":false,"tools":["bash"],"usage":{"input_tokens":800,"cache_creation_tokens":0,"cache_read_tokens":8192,"prompt_tokens":8992,"output_tokens":60,"cache_hit":0.9110320284697508}}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv' 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns --only-turns examples/run.jsonl examples/failed.jsonl examples/timeout.jsonl | jq -r '[.turn_id, .status, .usage.input_tokens] | @tsv'",
  "stderr": "",
  "stdout": String(
    agent-7e21-turn-0001\\tcompleted\\t420
    20261202-231501-7f3a-turn-0001\\tcompleted\\t3900
    20261202-231501-7f3a-turn-0002\\tcompleted\\t800
    20261202-224010-9b21-turn-0001\\tfailed\\t3000
    20261202-220000-e5f6-turn-0001\\tinterrupted\\t4000
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-turns examples/timeout.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-turns examples/timeout.jsonl",
  "stderr": "",
  "stdout": String(
    {"effort":"","max_parallel":4,"model":"claude-sonnet-4-20250514","permissions":{"mode":"standard"},"protocol_version":"wuu-app-server/v0.1","provider":"anthropic","type":"session_configured","variant":"","workspace_root":"/home/alice/src/shop"}
    {"cwd":"/home/alice/src/shop","model":"claude-sonnet-4-20250514","provider":"anthropic","thread_id":"20261202-220000-e5f6","type":"thread_started"}
    {"type":"turn","thread_id":"20261202-220000-e5f6","turn_id":"20261202-220000-e5f6-turn-0001","status":"interrupted","error":null,"reason":"timeout","awaiting_auto_continuation":null,"trace_path":null,"subagent":false,"message":"Refactoring the checkout; running the e2e suite.","message_source":"deltas","tool_calls":[{"item_id":"20261202-220000-e5f6-turn-0001-item-3","name":"bash","status":"incomplete","exit_code":null,"output_bytes":0}],"files_changed":[],"todo":null,"usage":{"input_tokens":4000,"cache_creation_tokens":0,"cache_read_tokens":3000,"prompt_tokens":7000,"output_tokens":200,"cache_hit":0.42857142857142855},"completed_tokens":null,"event_counts":{"turn_started":1,"agent_message_delta":2,"tool_started":1,"command_started":1,"usage_updated":1,"turn_interrupted":1}}
    {"error":"timeout","final_message":"Refactoring the checkout; running the e2e suite.","run_id":"run-20261202-220000-e5f6","status":"timeout","thread_id":"20261202-220000-e5f6","trace_path":"/home/alice/.wuu/sessions/20261202-220000-e5f6/session-trace.jsonl","turn_id":"20261202-220000-e5f6-turn-0001","type":"result"}
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --by thread,model --breakdown --csv examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --by thread,model --breakdown --csv examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": String(
    kind,thread_id,model,agent,breakdown_model,turns,agents,input_tokens,cache_creation_tokens,cache_read_tokens,prompt_tokens,output_tokens,cache_hit_ratio,cost_usd,date_source
    row,,claude-sonnet-4-5,main,,0,0,0,0,0,0,0,,0,mtime
    model,,claude-sonnet-4-5,main,claude-sonnet-4-5,0,0,0,0,0,0,0,,0,mtime
    row,20261202-224010-9b21,gpt-5,main,,1,0,3000,0,0,3000,90,0,0.00465,session_id
    model,20261202-224010-9b21,gpt-5,main,gpt-5,1,0,3000,0,0,3000,90,0,0.00465,session_id
    row,20261202-233000-e1d2,claude-haiku-4-5,main,,1,0,1300,2048,0,3348,81,0,0.004265,session_id
    model,20261202-233000-e1d2,claude-haiku-4-5,main,claude-haiku-4-5,1,0,1300,2048,0,3348,81,0,0.004265,session_id
    row,20261202-231501-7f3a,claude-sonnet-4-5,main,,2,0,4700,4096,12288,21084,370,0.58281161,0.0386964,session_id
    model,20261202-231501-7f3a,claude-sonnet-4-5,main,claude-sonnet-4-5,2,0,4700,4096,12288,21084,370,0.58281161,0.0386964,session_id
    row,20261202-231501-7f3a,claude-sonnet-4-5,subagents,,0,1,420,1000,0,1420,38,0,0.00558,session_id
    model,20261202-231501-7f3a,claude-sonnet-4-5,subagents,claude-sonnet-4-5,0,1,420,1000,0,1420,38,0,0.00558,session_id
    row,,unknown,main,,0,0,0,0,0,0,0,,0,mtime
    model,,unknown,main,unknown,0,0,0,0,0,0,0,,0,mtime
    row,20261202-230512-c4d0,gpt-5,main,,1,0,2100,0,1024,3124,44,0.327784891,0.003193,session_id
    model,20261202-230512-c4d0,gpt-5,main,gpt-5,1,0,2100,0,1024,3124,44,0.327784891,0.003193,session_id
    row,20261202-220000-e5f6,claude-sonnet-4-20250514,main,,1,0,4000,0,3000,7000,200,0.428571428,0.0159,session_id
    model,20261202-220000-e5f6,claude-sonnet-4-20250514,main,claude-sonnet-4-20250514,1,0,4000,0,3000,7000,200,0.428571428,0.0159,session_id
    total,,,main,,6,0,15100,6144,16312,37556,785,0.434338055,0.0667044,mtime+session_id
    total,,,subagents,,0,1,420,1000,0,1420,38,0,0.00558,session_id
    total,,,all,,6,1,15520,7144,16312,38976,823,0.418513957,0.0722844,mtime+session_id
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == "total") | .all' 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --json examples/run.jsonl | jq -c 'select(.kind == \\"total\\") | .all'",
  "stderr": "",
  "stdout": "{\\"turns\\":2,\\"agents\\":1,\\"input_tokens\\":5120,\\"cache_creation_tokens\\":5096,\\"cache_read_tokens\\":12288,\\"output_tokens\\":408,\\"prompt_tokens\\":22504,\\"cache_hit_ratio\\":0.54603626,\\"cost_usd\\":0.0442764,\\"date_source\\":\\"session_id\\"}\\n",
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --merge --table parts/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --merge --table parts/",
  "stderr": "",
  "stdout": String(
    THREAD                RUN                       FILE                         AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    --------------------  ------------------------  ---------------------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    -                     -                         examples/busy.jsonl          main           0       0       0            0           0       0       0          -  $0.0000
    20261202-224010-9b21  run-20261202-224010-9b21  examples/failed.jsonl        main           1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    20261202-233000-e1d2  (no result)               examples/killed.jsonl        main           1       0   1,300        2,048           0   3,348      81       0.0%  $0.0043
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl           main           2       0   4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl           subagents      0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    -                     -                         examples/setup-failed.jsonl  main           0       0       0            0           0       0       0          -  $0.0000
    20261202-230512-c4d0  run-20261202-230512-c4d0  examples/structured.jsonl    main           1       0   2,100            0       1,024   3,124      44      32.8%  $0.0032
    20261202-220000-e5f6  run-20261202-220000-e5f6  examples/timeout.jsonl       main           1       0   4,000            0       3,000   7,000     200      42.9%  $0.0159
    --------------------  ------------------------  ---------------------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL                                                                        main           6       0  15,100        6,144      16,312  37,556     785      43.4%  $0.0667
    TOTAL                                                                        subagents      0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL                                                                        all            6       1  15,520        7,144      16,312  38,976     823      41.9%  $0.0723
    
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
    | 20261202-231501-7f3a | main | 2 | 0 | 4,700 | 4,096 | 12,288 | 21,084 | 370 | 58.3% | $0.0387 |
    | 20261202-231501-7f3a | subagents | 0 | 1 | 420 | 1,000 | 0 | 1,420 | 38 | 0.0% | $0.0056 |
    | TOTAL | main | 2 | 0 | 4,700 | 4,096 | 12,288 | 21,084 | 370 | 58.3% | $0.0387 |
    | TOTAL | subagents | 0 | 1 | 420 | 1,000 | 0 | 1,420 | 38 | 0.0% | $0.0056 |
    | TOTAL | all | 2 | 1 | 5,120 | 5,096 | 12,288 | 22,504 | 408 | 54.6% | $0.0443 |
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --table --by day --timezone UTC examples/run.jsonl examples/timeout.jsonl 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table --by day --timezone UTC examples/run.jsonl examples/timeout.jsonl",
  "stderr": "",
  "stdout": String(
    DAY         AGENT      TURNS  AGENTS  INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    ----------  ---------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    2026-12-02  main           3       0  8,700        4,096      15,288  28,084     570      54.4%  $0.0546
    2026-12-02  subagents      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    ----------  ---------  -----  ------  -----  -----------  ----------  ------  ------  ---------  -------
    TOTAL       main           3       0  8,700        4,096      15,288  28,084     570      54.4%  $0.0546
    TOTAL       subagents      0       1    420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL       all            3       1  9,120        5,096      15,288  29,504     608      51.8%  $0.0602
    
    Days in UTC: 2 runs dated by their session id.
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --table --by model --breakdown examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table --by model --breakdown examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": String(
    MODEL                     AGENT      BY MODEL                    TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    ------------------------  ---------  --------------------------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    claude-haiku-4-5          main                                       1       0   1,300        2,048           0   3,348      81       0.0%  $0.0043
                                         └ claude-haiku-4-5              1       0   1,300        2,048           0   3,348      81       0.0%  $0.0043
    claude-sonnet-4-20250514  main                                       1       0   4,000            0       3,000   7,000     200      42.9%  $0.0159
                                         └ claude-sonnet-4-20250514      1       0   4,000            0       3,000   7,000     200      42.9%  $0.0159
    claude-sonnet-4-5         main                                       2       0   4,700        4,096      12,288  21,084     370      58.3%  $0.0387
                                         └ claude-sonnet-4-5             2       0   4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    claude-sonnet-4-5         subagents                                  0       1     420        1,000           0   1,420      38       0.0%  $0.0056
                                         └ claude-sonnet-4-5             0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    gpt-5                     main                                       2       0   5,100            0       1,024   6,124     134      16.7%  $0.0078
                                         └ gpt-5                         2       0   5,100            0       1,024   6,124     134      16.7%  $0.0078
    unknown                   main                                       0       0       0            0           0       0       0          -  $0.0000
                                         └ unknown                       0       0       0            0           0       0       0          -  $0.0000
    ------------------------  ---------  --------------------------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL                     main                                       6       0  15,100        6,144      16,312  37,556     785      43.4%  $0.0667
    TOTAL                     subagents                                  0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL                     all                                        6       1  15,520        7,144      16,312  38,976     823      41.9%  $0.0723
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage --table examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage --table examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": String(
    THREAD                RUN                       FILE                         AGENT      TURNS  AGENTS   INPUT  CACHE WRITE  CACHE READ  PROMPT  OUTPUT  CACHE HIT     COST
    --------------------  ------------------------  ---------------------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    -                     -                         examples/busy.jsonl          main           0       0       0            0           0       0       0          -  $0.0000
    20261202-224010-9b21  run-20261202-224010-9b21  examples/failed.jsonl        main           1       0   3,000            0           0   3,000      90       0.0%  $0.0047
    20261202-233000-e1d2  (no result)               examples/killed.jsonl        main           1       0   1,300        2,048           0   3,348      81       0.0%  $0.0043
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl           main           2       0   4,700        4,096      12,288  21,084     370      58.3%  $0.0387
    20261202-231501-7f3a  run-20261202-231501-7f3a  examples/run.jsonl           subagents      0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    -                     -                         examples/setup-failed.jsonl  main           0       0       0            0           0       0       0          -  $0.0000
    20261202-230512-c4d0  run-20261202-230512-c4d0  examples/structured.jsonl    main           1       0   2,100            0       1,024   3,124      44      32.8%  $0.0032
    20261202-220000-e5f6  run-20261202-220000-e5f6  examples/timeout.jsonl       main           1       0   4,000            0       3,000   7,000     200      42.9%  $0.0159
    --------------------  ------------------------  ---------------------------  ---------  -----  ------  ------  -----------  ----------  ------  ------  ---------  -------
    TOTAL                                                                        main           6       0  15,100        6,144      16,312  37,556     785      43.4%  $0.0667
    TOTAL                                                                        subagents      0       1     420        1,000           0   1,420      38       0.0%  $0.0056
    TOTAL                                                                        all            6       1  15,520        7,144      16,312  38,976     823      41.9%  $0.0723
    
  ),
}
`

exports[`test/docs.test.ts > TAP > README.md commands > wuu-usage examples/ 1`] = `
Object {
  "code": 0,
  "command": "wuu-usage examples/",
  "stderr": String(
    wuu-usage: examples/killed.jsonl:25: warning: last line cut off (no newline at end of input): not valid JSON (Unterminated string in JSON at position 120); not counted
    wuu-usage: examples/killed.jsonl: warning: no result event after line 24: the run was cut short (killed?); its usage is counted under run (no result)
    wuu-usage: examples/killed.jsonl:24: warning: turn 20261202-233000-e1d2-turn-0001 (thread 20261202-233000-e1d2) has usage but never ended (no turn_completed, turn_failed or turn_interrupted)
    
  ),
  "stdout": String(
    kind\\tthread_id\\trun_id\\tfile\\tagent\\tturns\\tagents\\tinput_tokens\\tcache_creation_tokens\\tcache_read_tokens\\tprompt_tokens\\toutput_tokens\\tcache_hit_ratio\\tcost_usd\\tdate_source
    row\\t\\t\\texamples/busy.jsonl\\tmain\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t\\t0\\tmtime
    row\\t20261202-224010-9b21\\trun-20261202-224010-9b21\\texamples/failed.jsonl\\tmain\\t1\\t0\\t3000\\t0\\t0\\t3000\\t90\\t0\\t0.00465\\tsession_id
    row\\t20261202-233000-e1d2\\t\\texamples/killed.jsonl\\tmain\\t1\\t0\\t1300\\t2048\\t0\\t3348\\t81\\t0\\t0.004265\\tsession_id
    row\\t20261202-231501-7f3a\\trun-20261202-231501-7f3a\\texamples/run.jsonl\\tmain\\t2\\t0\\t4700\\t4096\\t12288\\t21084\\t370\\t0.58281161\\t0.0386964\\tsession_id
    row\\t20261202-231501-7f3a\\trun-20261202-231501-7f3a\\texamples/run.jsonl\\tsubagents\\t0\\t1\\t420\\t1000\\t0\\t1420\\t38\\t0\\t0.00558\\tsession_id
    row\\t\\t\\texamples/setup-failed.jsonl\\tmain\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t\\t0\\tmtime
    row\\t20261202-230512-c4d0\\trun-20261202-230512-c4d0\\texamples/structured.jsonl\\tmain\\t1\\t0\\t2100\\t0\\t1024\\t3124\\t44\\t0.327784891\\t0.003193\\tsession_id
    row\\t20261202-220000-e5f6\\trun-20261202-220000-e5f6\\texamples/timeout.jsonl\\tmain\\t1\\t0\\t4000\\t0\\t3000\\t7000\\t200\\t0.428571428\\t0.0159\\tsession_id
    total\\t\\t\\t\\tmain\\t6\\t0\\t15100\\t6144\\t16312\\t37556\\t785\\t0.434338055\\t0.0667044\\tmtime+session_id
    total\\t\\t\\t\\tsubagents\\t0\\t1\\t420\\t1000\\t0\\t1420\\t38\\t0\\t0.00558\\tsession_id
    total\\t\\t\\t\\tall\\t6\\t1\\t15520\\t7144\\t16312\\t38976\\t823\\t0.418513957\\t0.0722844\\tmtime+session_id
    
  ),
}
`
