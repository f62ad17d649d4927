// Drives `searcher --mcp` with the official MCP TypeScript SDK's client, as an
// agent would: connects over stdio (the SDK negotiates the protocol), lists
// the tools, then runs each call read from the JSON array in argv[4] and
// prints one JSON line per call: {name, isError, structuredContent, text}.
// The SDK checks every structuredContent against the tool's outputSchema.
//
//   node client.mjs SEARCHER INDEX CALLS_JSON
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [searcher, index, calls] = process.argv.slice(2);
// (The whole environment: the SDK passes only a few variables by default, and
// SAGASU_EDICT, XDG_CACHE_HOME decide what the searcher finds.)
const transport = new StdioClientTransport({
  command: searcher,
  args: ["--index", index, "--mcp"],
  env: process.env,
  stderr: "inherit",
});
const client = new Client({ name: "sagasu-e2e", version: "1.0.0" });
await client.connect(transport);
const info = client.getServerVersion();
const { tools } = await client.listTools();
console.log(JSON.stringify({ server: info.name, tools: tools.map((t) => t.name).sort() }));
for (const call of JSON.parse(calls)) {
  const r = await client.callTool(call);
  console.log(JSON.stringify({
    name: call.name,
    isError: r.isError ?? false,
    structuredContent: r.structuredContent ?? null,
    text: r.content?.[0]?.text ?? "",
  }));
}
await client.close();
