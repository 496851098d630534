#!/usr/bin/env node
// The agent command of the editor benchmark (`pi.agent.command`): starts the agent named in the
// JSON file $BENCH_EDITOR_CONTROL ({command, args, env, dropArgs?}) with our own arguments appended (less dropArgs), passes stdin
// and stdout through, and notes when each text delta leaves for the extension
// (performance.timeOrigin + now(), ms). At every agent_settled the times of that run are written
// as JSON to $BENCH_EDITOR_STAMPS (one line per run). (Eight agents at once run without it: the
// scripted server stamps their deltas, bench/editor/many-run.ts.)
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";

const target = JSON.parse(readFileSync(process.env.BENCH_EDITOR_CONTROL ?? "", "utf8"));
const env = { ...process.env, ...target.env };
const ours = process.argv.slice(2).filter((arg) => !(target.dropArgs ?? []).includes(arg));
const child = spawn(target.command, [...target.args, ...ours], { env, stdio: ["pipe", "pipe", "inherit"] });
// An agent that cannot start is named where the bench's terminal shows it ($BENCH_EDITOR_ERRORS),
// not only in the extension's log ("The agent exited (code 1)").
child.on("error", (error) => {
  const line = `stamp-agent: cannot start ${target.command}: ${error.message}\n`;
  process.stderr.write(line);
  if (process.env.BENCH_EDITOR_ERRORS) appendFileSync(process.env.BENCH_EDITOR_ERRORS, line);
  process.exit(1);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.on("SIGTERM", () => child.kill("SIGTERM"));

let stamps = [];

/**
 * Calls `onLine(head, now)` for each line of a stream, with its first 4 KB only: a 14 MB response
 * line is neither kept nor searched again per chunk (the scan was quadratic and held up the
 * stream it timed).
 */
function lineHeads(onLine) {
  let head = "";
  return (chunk) => {
    const now = performance.timeOrigin + performance.now();
    let start = 0;
    let lf;
    while ((lf = chunk.indexOf("\n", start)) !== -1) {
      if (head.length < 4096) head += chunk.slice(start, Math.min(lf, start + 4096 - head.length));
      onLine(head, now);
      head = "";
      start = lf + 1;
    }
    if (head.length < 4096) head += chunk.slice(start, Math.min(chunk.length, start + 4096 - head.length));
  };
}

/** When each command reached the agent and its response left it ($BENCH_EDITOR_PHASES, one JSON line each). */
const phase = (what, now) => process.env.BENCH_EDITOR_PHASES && appendFileSync(process.env.BENCH_EDITOR_PHASES, JSON.stringify({ what, t: now }) + "\n");

const onStdin = lineHeads((head, now) => {
  const command = /"type":"(switch_session|get_messages)"/.exec(head)?.[1];
  if (command) phase(`in ${command}`, now);
});
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  child.stdin.write(chunk);
  onStdin(chunk);
});
process.stdin.on("end", () => child.stdin.end());

child.stdout.setEncoding("utf8");
const onStdout = lineHeads((line, now) => {
  if (line.startsWith('{"type":"message_update"') && line.includes('"text_delta"')) {
    stamps.push(now);
  } else if (line.includes('"type":"agent_settled"')) {
    if (process.env.BENCH_EDITOR_STAMPS) appendFileSync(process.env.BENCH_EDITOR_STAMPS, JSON.stringify(stamps) + "\n");
    stamps = [];
  } else if (line.includes('"type":"response"')) {
    const command = /"command":"(switch_session|get_messages)"/.exec(line)?.[1];
    if (command) phase(`out ${command}`, now);
  }
});
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  onStdout(chunk);
});
