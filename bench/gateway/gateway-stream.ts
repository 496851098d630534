/**
 * What the model gateway costs a streamed reply: an SSE stream of N deltas (OpenAI chat
 * completions chunks) read straight from a local server, and the same through the gateway
 * running in a process of its own (as it runs in the extension host). Reports the client's wall
 * time for each path and the gateway process's CPU time.
 *
 *   npx tsx bench/gateway/gateway-stream.ts [deltas=4000] [runs=5]
 */
import { fork, type ChildProcess } from "node:child_process";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startGatewayServer } from "../../extension/gateway/gateway-server";

const deltas = Number(process.argv[2] ?? 4000);
const runs = Number(process.argv[3] ?? 5);

if (process.env.GATEWAY_CHILD) {
  // The gateway in its own process: reports its URL and token, then its CPU time when asked.
  void startGatewayServer([{ name: "p", upstream: process.env.GATEWAY_CHILD, key: async () => "sk-bench-key" }]).then((gateway) => {
    process.send?.({ url: gateway.url, token: gateway.token });
    process.on("message", () => {
      const cpu = process.cpuUsage();
      process.send?.({ cpuMs: (cpu.user + cpu.system) / 1000 });
    });
  });
} else {
  void main();
}

function chunk(i: number): string {
  return `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: `tok${i} ` }, finish_reason: null }] })}\n\n`;
}

async function main(): Promise<void> {
  const body = Array.from({ length: deltas }, (_, i) => chunk(i));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      // In pieces of 20 deltas per write, so the stream really is many network reads.
      for (let i = 0; i < body.length; i += 20) {
        if (!res.write(body.slice(i, i + 20).join(""))) await new Promise((resolve) => res.once("drain", resolve));
        if (i % 400 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const child: ChildProcess = fork(__filename, [], { env: { ...process.env, GATEWAY_CHILD: upstream }, execArgv: ["--import", "tsx"] });
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve) => child.once("message", (m) => resolve(m as { url: string; token: string })));
  const cpu = () => new Promise<number>((resolve) => (child.once("message", (m) => resolve((m as { cpuMs: number }).cpuMs)), child.send("cpu")));

  const agent = new http.Agent({ keepAlive: true });
  const read = (base: string) =>
    new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
      const start = performance.now();
      const req = http.request(`${base}/v1/chat/completions`, { method: "POST", agent, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } }, (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ ms: performance.now() - start, bytes }));
      });
      req.on("error", reject);
      req.end("{}");
    });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  await read(upstream);
  await read(`${url}/p`); // warm both paths
  const direct: number[] = [];
  const through: number[] = [];
  const cpus: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    direct.push((await read(upstream)).ms);
    const before = await cpu();
    const r = await read(`${url}/p`);
    cpus.push((await cpu()) - before);
    through.push(r.ms);
    bytes = r.bytes;
  }
  console.log(`deltas ${deltas} (${(bytes / 1024).toFixed(0)} KiB), runs ${runs}: direct ${median(direct).toFixed(1)} ms, through the gateway ${median(through).toFixed(1)} ms, gateway CPU ${median(cpus).toFixed(1)} ms (median)`);
  agent.destroy();
  child.kill();
  server.close();
}
