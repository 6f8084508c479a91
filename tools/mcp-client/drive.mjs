// Drives an MCP server with the official TypeScript SDK client, for agentdesk's tests and benchmark.
//
//   node drive.mjs PLAN.json        (or the plan on stdin)
//
// The plan names the transport and the steps:
//   {"transport": "http", "url": "http://127.0.0.1:PORT/mcp", "token": "…"}
//   {"transport": "stdio", "command": "java", "args": [...], "env": {...}}
//   "steps": [{"op": "listTools"}, {"op": "call", "name": "…", "arguments": {…}},
//             {"op": "listResourceTemplates"}, {"op": "readResource", "uri": "…"},
//             {"op": "callUntil", "name": "…", "arguments": {…}, "contains": "text", "timeoutMs": 10000},
//             {"op": "time", "name": "…", "arguments": {…}, "warmup": 50, "count": 500}]
// Each step may carry a "label", echoed in its answer.
// It prints one JSON document: the server's info and instructions, then one answer per step. A call's
// answer carries schemaErrors: Ajv's findings for its structured result against the tool's declared
// output schema (null when it conforms), so the caller can assert on both the result and the check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv from "ajv";
import { readFileSync } from "node:fs";

const plan = JSON.parse(readFileSync(process.argv[2] ?? 0, "utf8"));
const ajv = new Ajv({ allErrors: true, strict: true });

function transport() {
  if (plan.transport === "http") {
    const headers = plan.token ? { Authorization: `Bearer ${plan.token}` } : {};
    return new StreamableHTTPClientTransport(new URL(plan.url), { requestInit: { headers } });
  }
  if (plan.transport === "stdio") {
    return new StdioClientTransport({ command: plan.command, args: plan.args ?? [], env: plan.env, stderr: "pipe" });
  }
  throw new Error(`transport must be http or stdio, got ${plan.transport}`);
}

const client = new Client({ name: plan.clientName ?? "agentdesk-test-client", version: "1.0.0" });
const t = transport();
let stderr = "";
if (plan.transport === "stdio") {
  t.stderr?.on("data", (d) => { stderr += d.toString(); });
}
const out = { steps: [] };
const schemas = new Map();

function check(name, result) {
  const schema = schemas.get(name);
  if (!schema || result.isError) {
    return null;
  }
  const validate = ajv.compile(schema);
  return validate(result.structuredContent ?? null) ? null : validate.errors;
}

try {
  await client.connect(t);
  out.serverInfo = client.getServerVersion();
  out.instructions = client.getInstructions();
  out.protocolVersion = t.protocolVersion ?? null;
  for (const step of plan.steps) {
    const push = (answer) => out.steps.push({ label: step.label ?? null, ...answer });
    try {
      if (step.op === "listTools") {
        const r = await client.listTools();
        for (const tool of r.tools) {
          schemas.set(tool.name, tool.outputSchema);
          // Every declared schema must itself compile (strict mode: no unknown keywords).
          ajv.compile(tool.inputSchema);
          if (tool.outputSchema) ajv.compile(tool.outputSchema);
        }
        push({ ok: true, result: r });
      } else if (step.op === "call") {
        const r = await client.callTool({ name: step.name, arguments: step.arguments ?? {} });
        push({ ok: true, result: r, schemaErrors: check(step.name, r) });
      } else if (step.op === "callUntil") {
        // Repeats a call until its JSON holds the text (a terminal catching up with typed input).
        const deadline = Date.now() + (step.timeoutMs ?? 10000);
        let r;
        do {
          r = await client.callTool({ name: step.name, arguments: step.arguments ?? {} });
          if (JSON.stringify(r).includes(step.contains)) break;
          await new Promise((res) => setTimeout(res, 100));
        } while (Date.now() < deadline);
        push({ ok: true, result: r, schemaErrors: check(step.name, r) });
      } else if (step.op === "listResourceTemplates") {
        push({ ok: true, result: await client.listResourceTemplates() });
      } else if (step.op === "readResource") {
        push({ ok: true, result: await client.readResource({ uri: step.uri }) });
      } else if (step.op === "time") {
        const args = { name: step.name, arguments: step.arguments ?? {} };
        for (let i = 0; i < (step.warmup ?? 0); i++) await client.callTool(args);
        const ms = [];
        let errors = 0;
        for (let i = 0; i < step.count; i++) {
          const t0 = process.hrtime.bigint();
          const r = await client.callTool(args);
          ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (r.isError) errors++;
        }
        ms.sort((a, b) => a - b);
        const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
        push({ ok: true, result: { count: ms.length, errors, p50: q(0.5), p90: q(0.9), p99: q(0.99),
          min: ms[0], max: ms[ms.length - 1] } });
      } else {
        throw new Error(`unknown op ${step.op}`);
      }
    } catch (e) {
      push({ ok: false, error: String(e?.message ?? e), code: e?.code ?? null });
    }
  }
} catch (e) {
  out.connectError = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
  out.stderr = stderr;
}
process.stdout.write(JSON.stringify(out) + "\n");
