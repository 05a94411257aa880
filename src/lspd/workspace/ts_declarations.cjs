// lspd's reader of what a TypeScript file's importers see of it: its declarations, as
// TypeScript emits them for the file's text alone (`transpileDeclaration`, under the rules of
// `isolatedDeclarations`). Run as `node ts_declarations.cjs <typescript package directory>`;
// reads one JSON request per line on stdin, `{"id": n, "files": [["/abs/a.ts", "text"], ...]}`,
// and answers `{"id": n, "declarations": ["the .d.ts text" or null, ...]}` on stdout: null where
// a declaration needs the checker (an exported value whose type is not written, a computed
// name) or the text does not parse. It ends with its input, or 3 s after its last answer:
// loaded, it holds ~90 MB (TypeScript 7's server for kysely: ~500 MB), and it starts again
// in ~0.1 s on lspd's next question (an edit's check).
"use strict";

const path = require("path");
const readline = require("readline");
const ts = require(path.join(process.argv[2], "lib", "typescript.js"));

const IDLE_MS = 3_000;
let idle = null;

function rest() {
  clearTimeout(idle);
  idle = setTimeout(() => process.exit(0), IDLE_MS);
}

function declarations(fileName, text) {
  try {
    const emitted = ts.transpileDeclaration(text, { fileName, reportDiagnostics: true, compilerOptions: {} });
    return emitted.diagnostics && emitted.diagnostics.length ? null : emitted.outputText;
  } catch {
    return null; // a text TypeScript cannot emit alone: its importers are asked
  }
}

rest();
const lines = readline.createInterface({ input: process.stdin });
lines.on("close", () => process.exit(0));
lines.on("line", (line) => {
  rest();
  let request = null;
  try {
    request = JSON.parse(line);
    const found = request.files.map(([name, text]) => declarations(name, text));
    process.stdout.write(JSON.stringify({ id: request.id, declarations: found }) + "\n");
  } catch (error) {
    process.stdout.write(JSON.stringify({ id: request && request.id, error: String(error) }) + "\n");
  }
});
