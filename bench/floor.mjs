// The bare-Node floor of the benchmarks: frames JSONL on stdin (LF, one trailing CR stripped),
// answers get_state with a state like pi's, and answers every other command with a bare success.
// Nothing else is loaded, so its start-up and memory are what any Node agent pays at least.
let rest = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  rest += chunk;
  let lf;
  while ((lf = rest.indexOf("\n")) !== -1) {
    let line = rest.slice(0, lf);
    rest = rest.slice(lf + 1);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line) answer(line);
  }
});

function answer(line) {
  let command;
  try {
    command = JSON.parse(line);
  } catch (error) {
    return write({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${error.message}` });
  }
  const id = typeof command.id === "string" ? { id: command.id } : {};
  if (command.type === "get_state") {
    const data = {
      thinkingLevel: "off",
      isStreaming: false,
      isCompacting: false,
      steeringMode: "all",
      followUpMode: "all",
      sessionId: "00000000-0000-4000-8000-000000000000",
      autoCompactionEnabled: true,
      messageCount: 0,
      pendingMessageCount: 0,
    };
    return write({ ...id, type: "response", command: "get_state", success: true, data });
  }
  write({ ...id, type: "response", command: String(command.type), success: true });
}

function write(frame) {
  process.stdout.write(JSON.stringify(frame) + "\n");
}
