// A preview: the check a proposed change would get, its texts served over the disk's by a
// throwaway builder made from the kept one.
"use strict";

const fs = require("fs");
const path = require("path");
const ts = require("./tsbuilder_typescript.cjs");
const { hash, makeHost, retryUnresolved } = require("./tsbuilder_sources.cjs");
const { signOldDeclarations } = require("./tsbuilder_signing.cjs");
const { entry } = require("./tsbuilder_lines.cjs");
const { checkOptions, parsedConfig } = require("./tsbuilder_config.cjs");
const { projects, owe } = require("./tsbuilder_kept.cjs");
const check = require("./tsbuilder_check.cjs");

const { affectedFiles, ownFiles, libraryFiles, saidLibraries, syntaxErrors, configured, diagnosticsOf } = check;

// A preview: the check a proposed change would get, its texts (`texts`: file name -> text,
// null: deleted) served instead of the disk's, by a builder made for it from the kept one
// and then dropped, its state kept (`previewed`, without its program: no checker) for the
// check that finds the disk as the preview had it (`tsbuilder_check.cjs`'s `previewAsOnDisk`).
// The kept builder, its program and what it reported stay as they were, so the next real
// check of other texts decides as if no preview had run. Before the throwaway program is made,
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
    owe();
  }
  const parsed = parsedConfig(configPath, overlaySystem(overlay));
  const options = checkOptions(parsed);
  const roots = parsed.fileNames.filter((name) => overlay.get(path.resolve(name)) !== null);
  const builder = ts.createSemanticDiagnosticsBuilderProgram(
    roots,
    options,
    overlayHost(retryUnresolved(makeHost(options), known.reported), overlay),
    known.builder,
    ts.getConfigFileParsingDiagnostics(parsed),
    parsed.projectReferences,
  );
  const own = ownFiles(builder);
  const syntax = syntaxErrors(builder, [...own, ...libraryFiles(builder)]);
  const stoppedAt = syntax ? [] : configured(builder, configPath);
  const stop = syntax || (stoppedAt.length ? new Map() : null);
  const affected = stop ? new Set() : affectedFiles(id, builder, false, own);
  // The library files with errors (and those the check said), every one answered.
  const libraries = saidLibraries(builder, stop, known.reported);
  const quiet = [...libraries.values()].every((found) => !found.length);
  // Declaration diagnostics are said only of a program with no other (`withDeclarations`): an
  // error anywhere takes every file's away, its fix brings them back, so every file is answered.
  const declaring = !stop && check.declares(parsed.options);
  const founds = new Map();
  for (const file of own) {
    // With a stop (a syntax error, the options' errors), or after a check that had one, any
    // file's answer may differ from the kept one's (the semantic errors left out, or those it
    // left out).
    const whole = stop || known.syntax || declaring;
    if (!whole && !affected.has(file.fileName) && !overlay.has(file.fileName)) continue;
    founds.set(file, diagnosticsOf(builder, file, stop));
  }
  if (declaring && quiet) check.withDeclarations(builder, founds, known.declared || new Map(), affected, false);
  for (const [file, found] of libraries) {
    founds.set(file, found);
    affected.add(file.fileName); // answered anew: its errors may be another state's than the check's
  }
  own.push(...libraries.keys());
  const diagnostics = {};
  for (const [file, found] of founds) {
    diagnostics[file.fileName] = found.filter((d) => d.file && d.start !== undefined).map(entry);
  }
  if (builder !== known.builder && builder.releaseProgram) {
    builder.releaseProgram(); // its state kept: the check that finds these texts takes it over
    const checked = new Set([...affected, ...overlay.keys()]);
    known.previewed = stop || known.syntax ? undefined : { builder, overlay, checked };
  }
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

module.exports = { preview };
