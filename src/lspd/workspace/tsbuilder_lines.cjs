// A diagnostic as lspd reads it: its place in LSP's lines and columns, its text and code.
"use strict";

const ts = require("./tsbuilder_typescript.cjs");

// LSP's lines (\n, \r\n, \r), as lspd reads a file and TypeScript 7's server counts them:
// TypeScript 5's line map also ends one at U+2028 and U+2029 (ECMAScript's), so an error
// below such a character was another line's, its column clamped to that line's end.
const lspStarts = new WeakMap(); // a source file's line starts, where its map differs

function position(file, pos) {
  let starts = lspStarts.get(file);
  if (starts === undefined) {
    starts = /[\u2028\u2029]/.test(file.text) ? lineStarts(file.text) : null;
    lspStarts.set(file, starts);
  }
  if (starts === null) return file.getLineAndCharacterOfPosition(pos);
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= pos) low = middle;
    else high = middle - 1;
  }
  return { line: low, character: pos - starts[low] };
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

function entry(diagnostic) {
  const file = diagnostic.file;
  const start = position(file, diagnostic.start);
  const end = position(file, diagnostic.start + diagnostic.length);
  return {
    start: { line: start.line + 1, offset: start.character + 1 },
    end: { line: end.line + 1, offset: end.character + 1 },
    text: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
    code: diagnostic.code,
    category: ts.DiagnosticCategory[diagnostic.category].toLowerCase(),
  };
}

module.exports = { position, entry };
