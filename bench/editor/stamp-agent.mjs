#!/usr/bin/env node
// The agent command of the editor benchmark (`pi.agent.command`): starts the agent named in the
// JSON file $BENCH_EDITOR_CONTROL ({command, args, env, dropArgs?}) with our own arguments appended (less dropArgs), passes stdin
// and stdout through, and notes when each text delta leaves for the extension
// (performance.timeOrigin + now(), ms). At every agent_settled the times of that run are written
// as JSON to $BENCH_EDITOR_STAMPS (one line per run), and to $BENCH_EDITOR_RUNS as
// {"first": <index of the run's first delta>, "stamps": [...]} (streams that run at once start at
// different indexes: this says whose stamps they are).
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
process.stdin.pipe(child.stdin);
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.on("SIGTERM", () => child.kill("SIGTERM"));

let stamps = [];
let first;
let rest = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  const now = performance.timeOrigin + performance.now();
  rest += chunk;
  let start = 0;
  let lf;
  while ((lf = rest.indexOf("\n", start)) !== -1) {
    const line = rest.slice(start, lf);
    start = lf + 1;
    if (line.startsWith('{"type":"message_update"') && line.includes('"text_delta"')) {
      if (stamps.length === 0) first = /"delta":"x([0-9a-z]{3}) "/.exec(line)?.[1];
      stamps.push(now);
    } else if (line.includes('"type":"agent_settled"')) {
      if (process.env.BENCH_EDITOR_STAMPS) appendFileSync(process.env.BENCH_EDITOR_STAMPS, JSON.stringify(stamps) + "\n");
      if (process.env.BENCH_EDITOR_RUNS && first !== undefined) appendFileSync(process.env.BENCH_EDITOR_RUNS, JSON.stringify({ first: parseInt(first, 36), stamps }) + "\n");
      stamps = [];
      first = undefined;
    }
  }
  rest = rest.slice(start);
});
