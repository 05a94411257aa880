// A check of one tsconfig's program as `tsc --watch` makes it: the builder made from the kept one,
// the files it checks anew, and each file's diagnostics as tsc reports them.
"use strict";

const fs = require("fs");
const ts = require("./tsbuilder_typescript.cjs");
const { changedOnDisk, makeHost, manifestsChanged, retryUnresolved, signed } = require("./tsbuilder_sources.cjs");
const { stateOf, signOldDeclarations } = require("./tsbuilder_signing.cjs");
const { position, entry } = require("./tsbuilder_lines.cjs");
const { listing, checkOptions, parsedConfig } = require("./tsbuilder_config.cjs");
const { projects, COLLECT_AT, collectOldChecker } = require("./tsbuilder_kept.cjs");

// The builder for a check of `configPath`, made from the one of its last check (then forgotten).
// A function of its own so the old builder is out of every live frame once it returns: V8
// keeps an interpreter frame's registers alive to its end, and `check` held the old builder in
// the one that passed it to TypeScript, so the old program and its checker (effect 3.10.0:
// ~525 MB) stayed reachable from the stack while the new program was checked (a heap
// snapshot at a re-check's first file: 867 MB in use, 342 without them).
function nextBuilder(configPath) {
  const parsed = parsedConfig(configPath, ts.sys);
  const options = checkOptions(parsed);
  const found = projects.get(configPath);
  const stale = Boolean(found && manifestsChanged(found)); // resolved anew: no old program
  const known = stale ? undefined : found;
  const adopted = known ? previewAsOnDisk(known) : undefined;
  const signing = Date.now();
  if (adopted) {
    // (the preview's own texts are the disk's now: signed, where they are, by the preview)
    const unpreviewed = (file) => !adopted.overlay.has(file.fileName) && changedOnDisk(file);
    signOldDeclarations(known, unpreviewed, stateOf(adopted.builder));
  } else if (known) signOldDeclarations(known);
  if (Date.now() - signing > 100) process.stderr.write(`tsbuilder: signed in ${Date.now() - signing} ms\n`);
  // A host of its own for each program: TypeScript wraps the host's `realpath` in a closure
  // over the program it creates (useSourceOfProjectReferenceRedirect) and never restores it,
  // so a reused host chained every old program and its checker (effect 3.10.0: +525 MB of
  // live heap per signature change). The parsed files are shared through `sources`.
  const host = known ? retryUnresolved(makeHost(options), known.reported) : makeHost(options);
  const builder = ts.createSemanticDiagnosticsBuilderProgram(
    parsed.fileNames,
    options,
    host,
    adopted ? adopted.builder : known ? known.builder : undefined,
    ts.getConfigFileParsingDiagnostics(parsed),
    parsed.projectReferences,
  );
  // The old program and its checker are garbage from here on, while the new one is checked
  // (not after it): a signature change's check then peaks near one program, not two. The old
  // builder lets go of its program too, so a stray reference to it (a frame's register) holds
  // no checker.
  projects.delete(configPath);
  // (Only if it is not the new one: TypeScript hands the old builder back given its program.)
  const old = found && found.builder !== builder ? found.builder : undefined;
  if (old && old.releaseProgram) old.releaseProgram();
  // The old program's checker is garbage now if it was not dropped while idle (dropChecker).
  const garbage = Boolean(found && !found.checkerDropped);
  // What a reused program resolved is the old one's: its manifests stay, the new reads over them.
  const manifests = new Map([...((known && known.manifests) || []), ...host.manifests]);
  const reported = found ? found.reported : new Map();
  const declared = (found && found.declared) || new Map();
  const emitting = parsed.options.noEmit === true ? undefined : parsed.options; // (`listing`)
  const previewed = adopted ? adopted.checked : undefined;
  const declaring = declares(parsed.options);
  return { builder, host, reported, declared, garbage, manifests, emitting, declaring, previewed };
}

// The last preview's state (`tsbuilder_preview.cjs`), where the disk now holds every text it
// had: an agent's change previewed, then written as previewed. A builder made from it finds
// those files as it had them and checks anew only what changed since, so the check after a
// preview of a signature change is not that check made again (valibot: 16.5 s each, before).
// What the preview checked anew is answered again (`checked`): the last check said otherwise.
function previewAsOnDisk(known) {
  const previewed = known.previewed;
  if (!previewed) return undefined;
  for (const [name, text] of previewed.overlay) if (diskText(name) !== text) return undefined;
  return previewed;
}

function diskText(name) {
  try {
    return fs.readFileSync(name, "utf8");
  } catch (error) {
    // none: as a preview's deleted file; unreadable (a folder there): no text it had
    return error && error.code === "ENOENT" ? null : undefined;
  }
}

// The project's own files, and those the builder checks anew (it hands out a changed file and
// the files importing it when its declarations changed; with isolatedModules it only forgets
// the importers' diagnostics, so a file whose diagnostics it forgot is one it will check).
// Its progress: every 10 files signed or checked, whichever is further (an importer signed is
// one whose check is mostly done: its types are the checker's then).
function affectedFiles(id, builder, garbage, own) {
  const program = builder.getProgram();
  const affected = new Set();
  let done = 0;
  let anew = 0; // files checked anew so far
  const checking = () => {
    anew += 1;
    if (anew === COLLECT_AT && garbage && global.gc) collectOldChecker();
  };
  let told = 0;
  const tell = (count) => {
    if (count % 10 !== 0 || count <= told) return;
    told = count;
    write({ id, progress: count });
  };
  let signs = 0;
  signed.onSign = () => tell(++signs);
  try {
    for (;;) {
      const next = builder.getSemanticDiagnosticsOfNextAffectedFile();
      if (!next) break;
      if (next.affected === program) {
        own.forEach((f) => affected.add(f.fileName));
      } else {
        affected.add(next.affected.fileName);
      }
      checking();
      tell(++done);
    }
  } finally {
    signed.onSign = null;
  }
  const state = stateOf(builder);
  const cache = state && state.semanticDiagnosticsPerFile;
  for (const file of own) {
    if (cache && !cache.has(file.resolvedPath)) {
      affected.add(file.fileName);
      checking();
    }
  }
  return affected;
}

// The program's own files: neither TypeScript's libraries nor packages', nor a referenced
// project's sources read in place of its outputs (useSourceOfProjectReferenceRedirect): those
// are that project's program's, as `tsc -b` says them once, of the project that owns them.
// Held as the referencing program's own, a syntax error in one was said once per program
// holding it and stopped each of them (b/y.ts's TS2305 against a/x.ts's recovered
// declarations, which tsc -b says, left out).
function ownFiles(builder) {
  const program = builder.getProgram();
  return program
    .getSourceFiles()
    .filter((f) => !program.isSourceFileDefaultLibrary(f) && !program.isSourceFileFromExternalLibrary(f) && !redirected(program, f));
}

// The program's library files: TypeScript's libraries and packages' (not a referenced
// project's sources). tsc -p says their errors as any file's (TS2416 in
// node_modules/@types/node/globals.d.ts), unless skipLibCheck (skipDefaultLibCheck for
// TypeScript's) leaves them unchecked, as the builder's checker does too.
function libraryFiles(builder) {
  const program = builder.getProgram();
  const library = (f) => program.isSourceFileDefaultLibrary(f) || program.isSourceFileFromExternalLibrary(f);
  return program.getSourceFiles().filter((f) => library(f) && !redirected(program, f));
}

// The library files said with the own ones: those with diagnostics now, and those said before
// (`reported`: said again, with none, when their errors went).
function saidLibraries(builder, stop, reported) {
  const said = new Map();
  for (const file of libraryFiles(builder)) {
    const found = diagnosticsOf(builder, file, stop);
    const last = reported.get(file.fileName);
    if (found.length || (last && last.found.length)) said.set(file, found);
  }
  return said;
}

// Whether a file is a referenced project's source read in place of its outputs.
function redirected(program, file) {
  return Boolean(program.isSourceOfProjectReferenceRedirect && program.isSourceOfProjectReferenceRedirect(file.fileName));
}

// The syntax errors of the program's own files, by file name; null when there are none.
// `tsc -p` and `tsc --watch` (emitFilesAndReportErrors) report a program's semantic
// diagnostics only when none of its files has a syntactic one: with a syntax error anywhere,
// tsc's whole answer is the syntax errors (TypeScript 7's `tsc -p` too). So is the gate's, and
// nothing is checked then, as tsc --watch checks nothing: the builder keeps the changes for the
// check after the fix. `own` holds the library files too for a check (a package's JSON module
// with a syntax error stops tsc -p as a source's).
function syntaxErrors(builder, own) {
  const found = new Map();
  for (const file of own) {
    const errors = builder.getSyntacticDiagnostics(file);
    if (errors.length) found.set(file.fileName, errors);
  }
  return found.size ? found : null;
}

// Where the program's options and global diagnostics are ([file name, 1-based line]: a file's
// own, else the tsconfig's first line), when no file has a syntax error: tsc says them then
// (TS5110, TS6053 a `files` entry not found, TS2688 a type library not found) and, when there
// is any, no semantic diagnostic (emitFilesAndReportErrors), so nothing is checked: its files
// say nothing, as with a syntax error. The configuration's parsing errors (TS5023, TS6046) are
// not among them: tsc checks the program with those.
function configured(builder, configPath) {
  const found = [...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics()];
  return found.map((d) =>
    d.file && d.start !== undefined ? [d.file.fileName, position(d.file, d.start).line + 1] : [configPath, 1],
  );
}

// A file's diagnostics as tsc reports them: its syntax errors alone when the program has any,
// none when its options stopped it (`stop`: the syntax errors by file, or an empty map).
function diagnosticsOf(builder, file, stop) {
  if (stop) return stop.get(file.fileName) || [];
  return [...builder.getSyntacticDiagnostics(file), ...builder.getSemanticDiagnostics(file)];
}

// Whether tsc says the program's declaration diagnostics (`withDeclarations`), of its options
// as its configuration gives them: it emits declarations (`declaration`, `composite`), and
// emits, or is TypeScript 5.6 or later, whose tsc says them under noEmit too (before, a
// `declaration` program under noEmit had TypeScript 5.5's builder say a TS4023 its tsc never
// says).
function declares(options) {
  const [major, minor] = ts.versionMajorMinor.split(".").map(Number);
  const noEmitSays = major > 5 || (major === 5 && minor >= 6);
  return Boolean(options.declaration || options.composite) && (options.noEmit !== true || noEmitSays);
}

// Declaration diagnostics (TS9010, isolatedDeclarations'; TS2742, an inferred type that cannot
// be named; TS4xxx) added to `founds` (file -> its diagnostics): tsc -p under noEmit says them
// when the program emits declarations and nothing else was said, no syntactic, options, global
// or semantic diagnostic (emitFilesAndReportErrors); lspd never asked for them (a TS9010 tsc -p
// fails on: `lspd check` 0 errors, check --baseline 0 new, hook and stop gate silent). Each
// file's are kept (`kept`, with `store`) while its parsed file is the same one and the builder
// did not check it anew, as they depend on what its semantic diagnostics depend on: a new
// program would compute every file's again (a declaration emit of each).
function withDeclarations(builder, founds, kept, affected, store) {
  if (![...founds.values()].every((found) => found.length === 0)) {
    // none said now; what the files checked anew had is another state's (asked again when
    // said: a check after only another file's fix reused a clean file's empty list)
    if (store) for (const name of affected) kept.delete(name);
    return;
  }
  for (const file of founds.keys()) {
    const last = kept.get(file.fileName);
    let found = last && last.file === file && !affected.has(file.fileName) ? last.found : undefined;
    if (!found) {
      found = builder.getDeclarationDiagnostics(file);
      if (store) kept.set(file.fileName, { file, found });
    }
    founds.set(file, found);
  }
}

function check(id, configPath) {
  const { builder, host, reported, declared, garbage, manifests, emitting, declaring, previewed } =
    nextBuilder(configPath);
  const own = ownFiles(builder);
  const syntax = syntaxErrors(builder, [...own, ...libraryFiles(builder)]);
  const stoppedAt = syntax ? [] : configured(builder, configPath);
  const stop = syntax || (stoppedAt.length ? new Map() : null);
  const affected = stop ? new Set() : affectedFiles(id, builder, garbage, own);
  if (!stop) for (const name of previewed || []) affected.add(name);
  // Each file's diagnostics are asked of the builder, which checks anew those it forgot.
  const founds = new Map(own.map((file) => [file, diagnosticsOf(builder, file, stop)]));
  const libraries = saidLibraries(builder, stop, reported);
  if (!stop && declaring && [...libraries.values()].every((found) => !found.length)) {
    withDeclarations(builder, founds, declared, affected, true);
  }
  for (const [file, found] of libraries) founds.set(file, found);
  own.push(...libraries.keys());
  const diagnostics = {};
  for (const file of own) {
    const found = founds.get(file);
    const last = reported.get(file.fileName);
    const same =
      last && last.file === file && last.found.length === found.length && last.found.every((d, i) => d === found[i]);
    if (same && !affected.has(file.fileName)) continue;
    reported.set(file.fileName, { file, found });
    affected.add(file.fileName);
    diagnostics[file.fileName] = found.filter((d) => d.file && d.start !== undefined).map(entry);
  }
  const names = new Set(own.map((f) => f.fileName));
  for (const kept of [reported, declared]) for (const name of [...kept.keys()]) if (!names.has(name)) kept.delete(name);
  // `syntax`: what it reported are syntax errors alone, the semantic ones left out.
  projects.set(configPath, { builder, host, reported, declared, syntax: Boolean(stop), manifests });
  const checked = [...affected].filter((name) => names.has(name));
  // `stopped`: the files whose syntax errors stopped the check (the others were not checked);
  // `configured`: where its options' errors stopped it.
  const stopped = syntax ? [...syntax.keys()] : [];
  const listed = listing(builder, emitting);
  const read = readFiles(builder, names);
  const library = [...libraries.keys()].map((f) => f.fileName);
  const answer = { id, files: [...names], checked, diagnostics, stopped, configured: stoppedAt, listed, read, library };
  return { ...answer, previewed: Boolean(previewed), version: ts.version };
}

// The program's other files but TypeScript's libraries and what lies in a node_modules folder:
// a package of the repository reached through a link (node_modules/a -> ../a), its built
// declarations read in place (lib/index.d.ts), which the watcher may not see (git-ignored):
// lspd follows them (`Workspace.follow`), else their rebuild left the whole check reused. A
// referenced project's sources are the watcher's (a solution's every one: not asked again).
function readFiles(builder, own) {
  const program = builder.getProgram();
  const other = (f) => !own.has(f.fileName) && !program.isSourceFileDefaultLibrary(f) && !redirected(program, f);
  return program
    .getSourceFiles()
    .filter((f) => other(f) && !f.fileName.includes("/node_modules/"))
    .map((f) => f.fileName);
}

function write(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

module.exports = {
  check,
  write,
  affectedFiles,
  ownFiles,
  libraryFiles,
  saidLibraries,
  syntaxErrors,
  configured,
  diagnosticsOf,
  declares,
  withDeclarations,
};
