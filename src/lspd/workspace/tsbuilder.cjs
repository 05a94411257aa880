// lspd's TypeScript checker: the project's own TypeScript builder, as `tsc --watch` runs it.
//
// Run as `node tsbuilder.cjs <typescript package directory>`; reads one JSON request per line
// on stdin, `{"id": n, "config": "/abs/tsconfig.json"}`, and answers on stdout with the
// diagnostics of the files the changes since the last request of that config affected (all
// of them the first time): the builder re-checks a changed file, and the files importing it
// only when its declarations (its .d.ts shape) changed, exactly as `tsc --watch` decides.
// Files read from disk; a file whose (mtime, size) is unchanged and older than 2 s is not
// read again, so unchanged files keep their parsed source and the builder their diagnostics.
// `{"id": n, "config": ..., "texts": {"/abs/file.ts": "text" or null}}` is a preview: the
// same check with those texts instead of the disk's, the kept builder left as it was.
//
// Its parts: tsbuilder_sources.cjs (the disk and the compiler host), tsbuilder_signing.cjs
// (declarations' signatures), tsbuilder_check.cjs (a check), tsbuilder_preview.cjs (a preview),
// tsbuilder_kept.cjs (the kept builders and their memory), tsbuilder_config.cjs (the tsconfig),
// tsbuilder_lines.cjs (a diagnostic's place), tsbuilder_typescript.cjs (the package).
"use strict";

const path = require("path");
const readline = require("readline");
const { check, write } = require("./tsbuilder_check.cjs");
const { preview } = require("./tsbuilder_preview.cjs");
const { GC_AFTER, collectWhenIdle, owe, cancelIdle, relieve } = require("./tsbuilder_kept.cjs");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let request;
  cancelIdle();
  try {
    request = JSON.parse(line);
    const config = path.resolve(request.config);
    const answer = request.texts ? preview(request.id, config, request.texts) : check(request.id, config);
    write(answer);
    relieve(config);
    if (answer.checked.length > GC_AFTER) owe();
    collectWhenIdle();
  } catch (error) {
    write({ id: request ? request.id : null, error: String(error && error.stack ? error.stack : error) });
  }
});
