// The official openai npm client streaming a chat completion from a
// `hearth serve`: node openai_stream.mjs BASE_URL MODEL. Prints
// {role, text, chunks, finish, usage} as JSON.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "npm", "package.json"));
const OpenAI = require("openai").default ?? require("openai");

const [baseURL, model] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey: process.env.HEARTH_API_KEY ?? "none", maxRetries: 0 });
const stream = await client.chat.completions.create({
  model,
  messages: [{ role: "user", content: "Say hello." }],
  max_tokens: 8,
  temperature: 0,
  stream: true,
  stream_options: { include_usage: true },
});
let role = null, text = "", chunks = 0, finish = null, usage = null;
for await (const chunk of stream) {
  if (chunk.usage) usage = chunk.usage;
  const choice = chunk.choices[0];
  if (!choice) continue;
  if (choice.delta.role) role = choice.delta.role;
  if (choice.delta.content) { text += choice.delta.content; chunks++; }
  if (choice.finish_reason) finish = choice.finish_reason;
}
console.log(JSON.stringify({ role, text, chunks, finish, usage }));
