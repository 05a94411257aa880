// The declarations' signatures the builder compares to decide whether a changed file's
// importers are checked again: signed from the program that still holds a file's old text.
"use strict";

const ts = require("./tsbuilder_typescript.cjs");
const { changedOnDisk } = require("./tsbuilder_sources.cjs");

// A builder program's state: `state` since TypeScript 5.6, `getState()` before (5.4, 5.5). Read
// as `.state` alone, TypeScript 5.5's builder signed nothing (every first edit of a file, a
// body-only one too, re-checked its importers) and a preview missed the importers whose
// diagnostics it forgot.
function stateOf(builder) {
  return builder.state || (builder.getState ? builder.getState() : undefined);
}

// The builder's first program stands for each file's declarations by its text's version
// (`tsc --watch` too), so the first edit of any file, even of a comment, re-checks every
// file importing it. Before a changed file is parsed again, its declarations' signature is
// computed from the program that still holds its old text: the builder then compares
// declarations with declarations, and a body-only edit re-checks that file alone.
// A preview signs the files its texts change the same way (`changed`); a check taking over a
// preview's state signs into that state the files changed since. Returns how many it signed.
function signOldDeclarations(known, changed = changedOnDisk, state = stateOf(known.builder)) {
  const program = known.builder.getProgram();
  if (!state || !state.fileInfos || !ts.BuilderState || !ts.BuilderState.computeDtsSignature) return 0;
  let signed = 0;
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) continue;
    const info = state.fileInfos.get(file.resolvedPath);
    if (!info || (info.signature !== undefined && info.signature !== file.version)) continue;
    if (!changed(file)) continue;
    ts.BuilderState.computeDtsSignature(program, file, undefined, known.host, (signature) => {
      info.signature = signature;
    });
    signed += 1;
  }
  return signed;
}

// Between checks the builder needs its program (the files, to sign a changed file's old
// declarations), not the type checker that checked it: every check makes a new program with a
// checker of its own. So once idle, the program that was checked is replaced by one over the
// same parsed files (TypeScript reuses the whole structure; nothing is read or parsed again),
// its checker made only if a changed file is signed. The types of the last check (effect
// 3.10.0: ~535 of 860 MB) are then garbage, as `tsc -b --watch` releases its program.
// Before the checker goes, the files it knows whose declarations are still stood for by
// their text's version are signed with it (what signOldDeclarations would do at their first
// edit with a checker made for it: ~0.5 s each on effect under load). False: not all yet.
function signAhead(known, deadline) {
  const program = known.builder.getProgram();
  const state = stateOf(known.builder);
  if (!state || !state.fileInfos || !ts.BuilderState || !ts.BuilderState.computeDtsSignature) return true;
  for (const file of program.getSourceFiles()) {
    if (Date.now() > deadline) return false;
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) continue;
    const info = state.fileInfos.get(file.resolvedPath);
    if (!info || (info.signature !== undefined && info.signature !== file.version)) continue;
    ts.BuilderState.computeDtsSignature(program, file, undefined, known.host, (signature) => {
      info.signature = signature;
    });
  }
  return true;
}

module.exports = { stateOf, signOldDeclarations, signAhead };
