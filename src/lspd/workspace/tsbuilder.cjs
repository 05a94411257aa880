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
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");
const ts = require(path.join(process.argv[2], "lib", "typescript.js"));

const GC_AFTER = 50; // files checked anew
const COLLECT_AT = 20; // files checked anew: collectOldChecker
const GC_IDLE_MS = 1000; // the collection after a big check waits this long for no request
const SLICE_MS = 50; // idle work runs in slices this long, a request served between two
const YOUNG_MS = 2000; // an mtime this recent may hide a second write: compare the text
const sources = new Map(); // key -> {mtimeNs, size, text, file}
const byName = new Map(); // file name -> its entry in `sources` read last
const projects = new Map(); // config path -> {builder, host, reported: name -> {file, found}}

function hash(text) {
  return ts.sys.createHash ? ts.sys.createHash(text) : String(text.length) + ":" + text;
}

// The package.json files module resolution read, with their texts: a builder made from the old
// one reuses its resolutions while no source changed, so a workspace package's `exports` edit
// (node_modules/@demo/utils -> packages/utils) was never seen: TypeScript 5.9's check said 1
// error where tsc -b said 30. A check after one of them changed makes its program anew.
function readManifest(name) {
  try {
    return fs.readFileSync(name, "utf8");
  } catch {
    return null;
  }
}

function manifestsChanged(known) {
  for (const [name, text] of known.manifests || []) if (readManifest(name) !== text) return true;
  return false;
}

// A package.json looked for and not found is kept too (null): one added between files and the
// package scope they had (src/package.json `{"type": "commonjs"}` under the root's name and
// exports) is their new scope, and a reused program kept the old resolutions of the files it
// did not parse again: an .mts, ESM before and after, still reached the root's `exports` by
// its name where tsc -p said TS2307 (TypeScript 5.9.3).
function makeHost(options) {
  const host = ts.createCompilerHost(options, true);
  host.manifests = new Map();
  const isManifest = (fileName) => path.basename(fileName) === "package.json";
  const readFile = host.readFile;
  host.readFile = (fileName) => {
    const text = readFile.call(host, fileName);
    if (isManifest(fileName)) host.manifests.set(fileName, text === undefined ? null : text);
    return text;
  };
  const fileExists = host.fileExists;
  host.fileExists = (fileName) => {
    const found = fileExists.call(host, fileName);
    if (!found && isManifest(fileName) && !host.manifests.has(fileName)) host.manifests.set(fileName, null);
    return found;
  };
  // A referenced project is read from its sources, as tsserver does (its outputs may not be
  // built; `tsc -b` would build them first).
  host.useSourceOfProjectReferenceRedirect = () => true;
  host.getSourceFile = (fileName, languageVersion) => {
    const version =
      typeof languageVersion === "object" ? languageVersion.languageVersion : languageVersion;
    const format = typeof languageVersion === "object" ? languageVersion.impliedNodeFormat : "";
    const key = `${fileName}\0${version}\0${format}`;
    // A file it cannot read is no file, as tsc's own host has it (`sys.readFile`: undefined):
    // TypeScript then says what it says of a missing one (a `/// <reference path>`'s TS6053,
    // nothing where it tries a name with each extension). Told to `onError` it was a phantom
    // TS5012 "Cannot read file ...: ENOENT" tsc -p never says (a referenced script deleted,
    // `/// <reference path="../extra/shim" />`'s shim.ts tried before shim.d.ts).
    let stat;
    let text;
    try {
      stat = fs.statSync(fileName, { bigint: true });
    } catch {
      sources.delete(key);
      return undefined;
    }
    const known = sources.get(key);
    const old = Date.now() - Number(stat.mtimeMs) > YOUNG_MS;
    if (known && known.mtimeNs === stat.mtimeNs && known.size === stat.size && old) {
      return known.file;
    }
    try {
      text = fs.readFileSync(fileName, "utf8");
    } catch {
      sources.delete(key);
      return undefined;
    }
    if (known && known.text === text) {
      Object.assign(known, { mtimeNs: stat.mtimeNs, size: stat.size });
      return known.file;
    }
    const file = ts.createSourceFile(fileName, text, languageVersion, false);
    file.version = hash(text);
    const made = { mtimeNs: stat.mtimeNs, size: stat.size, text, file };
    sources.set(key, made);
    byName.set(fileName, made);
    return file;
  };
  return host;
}

// A builder program's state: `state` since TypeScript 5.6, `getState()` before (5.4, 5.5). Read
// as `.state` alone, TypeScript 5.5's builder signed nothing (every first edit of a file, a
// body-only one too, re-checked its importers) and a preview missed the importers whose
// diagnostics it forgot.
function stateOf(builder) {
  return builder.state || (builder.getState ? builder.getState() : undefined);
}

// Whether the file's text on disk differs from the text it was parsed from.
function changedOnDisk(file) {
  const known = byName.get(file.fileName);
  if (!known || known.file !== file) return true;
  try {
    const stat = fs.statSync(file.fileName, { bigint: true });
    const old = Date.now() - Number(stat.mtimeMs) > YOUNG_MS;
    if (known.mtimeNs === stat.mtimeNs && known.size === stat.size && old) return false;
    return fs.readFileSync(file.fileName, "utf8") !== known.text;
  } catch {
    return true;
  }
}

// The builder's first program stands for each file's declarations by its text's version
// (`tsc --watch` too), so the first edit of any file, even of a comment, re-checks every
// file importing it. Before a changed file is parsed again, its declarations' signature is
// computed from the program that still holds its old text: the builder then compares
// declarations with declarations, and a body-only edit re-checks that file alone.
// A preview signs the files its texts change the same way (`changed`). Returns how many it signed.
function signOldDeclarations(known, changed = changedOnDisk) {
  const program = known.builder.getProgram();
  const state = stateOf(known.builder);
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

function dropChecker(configPath) {
  const known = projects.get(configPath);
  const old = known.builder.getProgram();
  const options = old.getCompilerOptions();
  const host = makeHost(options);
  const program = ts.createProgram({
    rootNames: old.getRootFileNames(),
    options,
    host,
    oldProgram: old,
    configFileParsingDiagnostics: old.getConfigFileParsingDiagnostics(),
    projectReferences: old.getProjectReferences(),
  });
  const diagnostics = old.getConfigFileParsingDiagnostics();
  const dropped = known.builder;
  known.builder = ts.createSemanticDiagnosticsBuilderProgram(program, host, dropped, diagnostics);
  known.host = host;
  known.checkerDropped = true; // and the collection that follows frees it
  if (dropped !== known.builder && dropped.releaseProgram) dropped.releaseProgram();
}

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
  const signing = Date.now();
  if (known) signOldDeclarations(known);
  if (Date.now() - signing > 100) process.stderr.write(`tsbuilder: signed in ${Date.now() - signing} ms\n`);
  // A host of its own for each program: TypeScript wraps the host's `realpath` in a closure
  // over the program it creates (useSourceOfProjectReferenceRedirect) and never restores it,
  // so a reused host chained every old program and its checker (effect 3.10.0: +525 MB of
  // live heap per signature change). The parsed files are shared through `sources`.
  const host = makeHost(options);
  const builder = ts.createSemanticDiagnosticsBuilderProgram(
    parsed.fileNames,
    options,
    host,
    known ? known.builder : undefined,
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
  return { builder, host, reported, garbage, manifests, quiet: parsed.options.noEmit === true };
}

// What `tsc -p --listFilesOnly` says of the program's JSON files (its configuration's parsing
// errors, a JSON module's syntax errors, and its options' errors when no file has a syntax
// error), tsc's lines as they are, so lspd reads a TypeScript 5 configuration's errors from
// the program it checks, not from a tsc of its own: that listing re-read and re-parsed every
// file (2.2 of the 2.5 s of a daemon's first check after a file came or went, a 21-file
// project at load 8). Null unless the tsconfig says noEmit itself: the builder's options add
// it, and tsc's options errors of an emitting program (TS5055: a JavaScript file's output
// would overwrite it) are not the builder's then.
function listing(builder, quiet) {
  if (!quiet) return null;
  const program = builder.getProgram();
  const syntax = program.getSyntacticDiagnostics();
  const found = [...program.getConfigFileParsingDiagnostics(), ...syntax];
  if (!syntax.length) found.push(...program.getOptionsDiagnostics());
  const said = found.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return said
    .filter((d) => !d.file || d.file.fileName.endsWith(".json"))
    .map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      return at ? [d.file.fileName, at.line + 1, at.character + 1, d.code, text] : [null, 1, 1, d.code, text];
    });
}

// The tsconfig's options for a check: nothing is emitted, and a declaration's signature (the
// builder's test of whether importers must be checked again: a hash of the file's .d.ts) is
// made without comments. The .d.ts keeps JSDoc comments, so editing one made every importer
// be checked again (`tsc --watch` too), though no importer's errors can depend on it: the
// types a JSDoc gives in a JavaScript file are printed as types, not as the comment.
// `removeComments` only changes what is emitted, and nothing is.
// The tsconfig's source file stays (a property a spread leaves out): TypeScript places an
// option's error in it by it (tsc: `tsconfig.json(5,25): error TS5095`, not line 1) and says
// a missing `files` entry is "Part of 'files' list in tsconfig.json".
function checkOptions(parsed) {
  const options = { ...parsed.options, noEmit: true, removeComments: true };
  const configFile = parsed.options.configFile;
  if (configFile) Object.defineProperty(options, "configFile", { value: configFile, enumerable: false });
  return options;
}

function parsedConfig(configPath, system) {
  return ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...system,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
}

// The project's own files, and those the builder checks anew (it hands out a changed file and
// the files importing it when its declarations changed; with isolatedModules it only forgets
// the importers' diagnostics, so a file whose diagnostics it forgot is one it will check).
function affectedFiles(id, builder, garbage, own) {
  const program = builder.getProgram();
  const affected = new Set();
  let done = 0;
  let anew = 0; // files checked anew so far
  const checking = () => {
    anew += 1;
    if (anew === COLLECT_AT && garbage && global.gc) collectOldChecker();
  };
  for (;;) {
    const next = builder.getSemanticDiagnosticsOfNextAffectedFile();
    if (!next) break;
    if (next.affected === program) {
      own.forEach((f) => affected.add(f.fileName));
    } else {
      affected.add(next.affected.fileName);
    }
    checking();
    done += 1;
    if (done % 10 === 0) write({ id, progress: done });
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

// The program's own files: neither TypeScript's libraries nor packages'.
function ownFiles(builder) {
  const program = builder.getProgram();
  return program
    .getSourceFiles()
    .filter((f) => !program.isSourceFileDefaultLibrary(f) && !program.isSourceFileFromExternalLibrary(f));
}

// The syntax errors of the program's own files, by file name; null when there are none.
// `tsc -p` and `tsc --watch` (emitFilesAndReportErrors) report a program's semantic
// diagnostics only when none of its files has a syntactic one: with a syntax error anywhere,
// tsc's whole answer is the syntax errors (TypeScript 7's `tsc -p` too). So is the gate's, and
// nothing is checked then, as tsc --watch checks nothing: the builder keeps the changes for the
// check after the fix. (A syntax error in a library file alone, which lspd does not report,
// leaves the semantic diagnostics reported: a gate must not look clean while tsc fails.)
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

function check(id, configPath) {
  const { builder, host, reported, garbage, manifests, quiet } = nextBuilder(configPath);
  const own = ownFiles(builder);
  const syntax = syntaxErrors(builder, own);
  const stoppedAt = syntax ? [] : configured(builder, configPath);
  const stop = syntax || (stoppedAt.length ? new Map() : null);
  const affected = stop ? new Set() : affectedFiles(id, builder, garbage, own);
  // Each file's diagnostics are asked of the builder, which checks anew those it forgot.
  const diagnostics = {};
  for (const file of own) {
    const found = diagnosticsOf(builder, file, stop);
    const last = reported.get(file.fileName);
    const same =
      last && last.file === file && last.found.length === found.length && last.found.every((d, i) => d === found[i]);
    if (same && !affected.has(file.fileName)) continue;
    reported.set(file.fileName, { file, found });
    affected.add(file.fileName);
    diagnostics[file.fileName] = found.filter((d) => d.file && d.start !== undefined).map(entry);
  }
  const names = new Set(own.map((f) => f.fileName));
  for (const name of [...reported.keys()]) if (!names.has(name)) reported.delete(name);
  // `syntax`: what it reported are syntax errors alone, the semantic ones left out.
  projects.set(configPath, { builder, host, reported, syntax: Boolean(stop), manifests });
  const checked = [...affected].filter((name) => names.has(name));
  // `stopped`: the files whose syntax errors stopped the check (the others were not checked);
  // `configured`: where its options' errors stopped it.
  const stopped = syntax ? [...syntax.keys()] : [];
  const listed = listing(builder, quiet);
  return { id, files: [...names], checked, diagnostics, stopped, configured: stoppedAt, listed, version: ts.version };
}

// A preview: the check a proposed change would get, its texts (`texts`: file name -> text,
// null: deleted) served instead of the disk's, by a builder made for it from the kept one
// and then dropped. The kept builder, its program and what it reported stay as they were, so
// the next real check decides as if no preview had run. Before the throwaway program is made,
// the changed files' old declarations are signed in the kept state (as a real check would:
// the signature of the text the kept program holds), so a body-only change re-checks the
// file alone. Answers the diagnostics of the files it checked anew and of the changed ones.
function preview(id, configPath, texts) {
  const known = projects.get(configPath);
  if (!known) throw new Error(`${configPath} has not been checked yet: check it first`);
  const overlay = new Map(Object.entries(texts).map(([name, text]) => [path.resolve(name), text]));
  const differs = (file) => overlay.has(file.fileName) && overlay.get(file.fileName) !== file.text;
  // Signing after the idle work dropped the checker made the kept program a new one: it is
  // the old checker of the next check again (collectOldChecker), and idle work is owed.
  if (signOldDeclarations(known, differs) && known.checkerDropped) {
    known.checkerDropped = false;
    collectionOwed = true;
  }
  const parsed = parsedConfig(configPath, overlaySystem(overlay));
  const options = checkOptions(parsed);
  const roots = parsed.fileNames.filter((name) => overlay.get(path.resolve(name)) !== null);
  const builder = ts.createSemanticDiagnosticsBuilderProgram(
    roots,
    options,
    overlayHost(makeHost(options), overlay),
    known.builder,
    ts.getConfigFileParsingDiagnostics(parsed),
    parsed.projectReferences,
  );
  const own = ownFiles(builder);
  const syntax = syntaxErrors(builder, own);
  const stoppedAt = syntax ? [] : configured(builder, configPath);
  const stop = syntax || (stoppedAt.length ? new Map() : null);
  const affected = stop ? new Set() : affectedFiles(id, builder, false, own);
  const diagnostics = {};
  for (const file of own) {
    // With a stop (a syntax error, the options' errors), or after a check that had one, any
    // file's answer may differ from the kept one's (the semantic errors left out, or those it
    // left out).
    const whole = stop || known.syntax;
    if (!whole && !affected.has(file.fileName) && !overlay.has(file.fileName)) continue;
    const found = diagnosticsOf(builder, file, stop);
    diagnostics[file.fileName] = found.filter((d) => d.file && d.start !== undefined).map(entry);
  }
  if (builder !== known.builder && builder.releaseProgram) builder.releaseProgram();
  const files = own.map((f) => f.fileName);
  const stopped = syntax ? [...syntax.keys()] : [];
  return { id, files, checked: [...affected], diagnostics, stopped, configured: stoppedAt, version: ts.version };
}

// The directories a file of the overlay needs that the disk lacks.
function newDirectories(overlay) {
  const made = new Set();
  for (const [name, text] of overlay) {
    if (text === null) continue;
    for (let dir = path.dirname(name); !made.has(dir) && !fs.existsSync(dir); dir = path.dirname(dir)) {
      made.add(dir);
    }
  }
  return made;
}

// `ts.sys` seeing the overlay: the tsconfig's include patterns find a new file, not a deleted one.
function overlaySystem(overlay) {
  const made = newDirectories(overlay);
  const exists = (name, onDisk) => (overlay.has(name) ? overlay.get(name) !== null : onDisk(name));
  const entries = (dir) => {
    let listed = { files: [], directories: [] };
    try {
      const found = fs.readdirSync(dir, { withFileTypes: true });
      listed = {
        files: found.filter((e) => e.isFile()).map((e) => e.name),
        directories: found.filter((e) => e.isDirectory()).map((e) => e.name),
      };
    } catch {}
    const files = new Set(listed.files.filter((n) => overlay.get(path.join(dir, n)) !== null));
    const directories = new Set(listed.directories);
    for (const [name, text] of overlay) if (text !== null && path.dirname(name) === dir) files.add(path.basename(name));
    for (const name of made) if (path.dirname(name) === dir) directories.add(path.basename(name));
    return { files: [...files].sort(), directories: [...directories].sort() };
  };
  const system = {
    ...ts.sys,
    fileExists: (name) => exists(path.resolve(name), ts.sys.fileExists),
    readFile: (name, encoding) => {
      const full = path.resolve(name);
      return overlay.has(full) ? (overlay.get(full) ?? undefined) : ts.sys.readFile(name, encoding);
    },
    directoryExists: (name) => made.has(path.resolve(name)) || ts.sys.directoryExists(name),
  };
  if (ts.matchFiles) {
    system.readDirectory = (root, extensions, excludes, includes, depth) =>
      ts.matchFiles(root, extensions, excludes, includes, ts.sys.useCaseSensitiveFileNames, process.cwd(), depth, entries, ts.sys.realpath);
  }
  return system;
}

// A compiler host serving the overlay's texts (parsed for this program only, never kept in
// `sources`) and the disk's for the rest; module resolution sees new files and not deleted ones.
function overlayHost(host, overlay) {
  const system = overlaySystem(overlay);
  const disk = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const full = path.resolve(fileName);
    if (!overlay.has(full)) return disk(fileName, languageVersion, onError);
    const text = overlay.get(full);
    if (text === null) return undefined;
    const file = ts.createSourceFile(fileName, text, languageVersion, false);
    file.version = hash(text);
    return file;
  };
  Object.assign(host, {
    fileExists: system.fileExists,
    readFile: system.readFile,
    directoryExists: system.directoryExists,
  });
  return host;
}

// A re-check of many files after a declaration change: the old program's checker (effect
// 3.10.0: ~500 MB of types) is garbage from nextBuilder on, and V8 sets its next collection
// from the heap its last one left, so without a collection the new checker's types pile on
// top of the old ones before V8 looks: the builder's resident memory after a signature change
// and its undo, checked back to back, 1,738 MB. One full collection once COLLECT_AT files are
// being checked anew, while what is live is little more than the new program's syntax (~350
// MB), costs ~0.5 s of a 20 s check and leaves 1,200 MB. Not for small checks (a leaf or body
// edit's: 1 file), nor after the idle collection already freed the old checker.
function collectOldChecker() {
  logged("old checker collected", () => global.gc());
}

// Runs `collect` and says on stderr (the helper's log) how long it took and what it left.
function logged(what, collect) {
  const [began, before] = [Date.now(), mb(process.memoryUsage.rss())];
  collect();
  const after = process.memoryUsage();
  const said = `resident ${before} -> ${mb(after.rss)} MB, heap used ${mb(after.heapUsed)} MB`;
  process.stderr.write(`tsbuilder: ${what} in ${Date.now() - began} ms: ${said}\n`);
}

function mb(bytes) {
  return Math.round(bytes / 2 ** 20); // `>> 20` wraps past 2 GB
}

function write(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// A check of many files leaves a heap of garbage (the old program's types) and V8 keeps the
// pages it freed: effect 3.10.0 on Node 24, 1,154 MB resident after the cold check and 1,681
// after a signature change with 860 MB live, even after a full collection, and V8's own memory
// reducer never starts (it judges the allocation rate high until the next collection). So
// after such a check, once GC_IDLE_MS pass without a request (a re-check asked right away, an
// undo, is not made to wait), the helper signs what it can while the checker is warm, drops
// the checker (dropChecker) and runs a collection that reduces memory (the "last-resort"
// flavour: compacts, shrinks the young generation, gives the freed pages back): 467 MB after
// the cold check, 333 in use. It runs while nobody waits, not during the next edit's check
// (the first edit after the cold check on Node 24: 18.3 s without a collection, 9.3 s with
// one, both under load).
let collectionOwed = false;
let collection;

function collectWhenIdle() {
  if (!global.gc || !collectionOwed) return;
  collection = setTimeout(idleWork, GC_IDLE_MS);
}

// Signs files in slices of SLICE_MS (a request between two is served at once; the slices go
// on after it), then drops the checkers and collects.
function idleWork() {
  const deadline = Date.now() + SLICE_MS;
  for (const known of projects.values()) {
    if (!signAhead(known, deadline)) {
      collection = setTimeout(idleWork, 0);
      return;
    }
  }
  collection = undefined;
  collectionOwed = false;
  logged("memory returned", () => {
    for (const configPath of [...projects.keys()]) {
      try {
        dropChecker(configPath);
      } catch (error) {
        projects.delete(configPath); // its next check starts afresh
        process.stderr.write(`tsbuilder: ${configPath}: ${error && error.stack ? error.stack : error}\n`);
      }
    }
    global.gc({ type: "major", execution: "sync", flavor: "last-resort" });
  });
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let request;
  clearTimeout(collection);
  try {
    request = JSON.parse(line);
    const config = path.resolve(request.config);
    const answer = request.texts ? preview(request.id, config, request.texts) : check(request.id, config);
    write(answer);
    if (answer.checked.length > GC_AFTER) collectionOwed = true;
    collectWhenIdle();
  } catch (error) {
    write({ id: request ? request.id : null, error: String(error && error.stack ? error.stack : error) });
  }
});
