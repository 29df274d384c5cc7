// A scripted MCP client on @modelcontextprotocol/sdk that declares
// elicitation. It starts the server command in MCP_SERVER_ARGV (a JSON
// array), calls TOOL with TOOL_ARGS (JSON), answers every elicitation with
// ACTION ("accept" fills the form, "decline" or "cancel" does not), and
// prints one JSON line: the elicitation messages it saw and the result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = JSON.parse(process.env.MCP_SERVER_ARGV);
const action = process.env.ACTION || "accept";
const asked = [];

const client = new Client(
  { name: "airlock-e2e-elicit", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  asked.push(req.params.message);
  if (action !== "accept") {
    return { action };
  }
  // Fill the form: airlock's own asks for one boolean "approve"; a
  // server's may ask for anything, so answer each field plausibly.
  const content = {};
  const props = (req.params.requestedSchema && req.params.requestedSchema.properties) || {};
  for (const [key, schema] of Object.entries(props)) {
    if (schema.type === "boolean") content[key] = true;
    else if (schema.type === "string" && !schema.enum && !schema.oneOf && !schema.format) content[key] = "Ada";
    else if (schema.format === "email") content[key] = "ada@example.com";
  }
  return { action: "accept", content };
});

const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
await client.connect(transport);
const result = await client.callTool({
  name: process.env.TOOL,
  arguments: JSON.parse(process.env.TOOL_ARGS || "{}"),
});
console.log(JSON.stringify({ asked, result }));
await client.close();
