// The builder's reading of the disk: the parsed source files shared by every program (a file
// whose (mtime, size) is unchanged and older than YOUNG_MS is not read again), and the compiler
// host that serves them and remembers the package.json files module resolution read.
"use strict";

const fs = require("fs");
const path = require("path");
const ts = require("./tsbuilder_typescript.cjs");

const YOUNG_MS = 2000; // an mtime this recent may hide a second write: compare the text
const sources = new Map(); // key -> {mtimeNs, size, text, file}
const byName = new Map(); // file name -> its entry in `sources` read last

function hash(text) {
  return ts.sys.createHash ? ts.sys.createHash(text) : String(text.length) + ":" + text;
}

// Each signature the builder takes (a file's declarations emitted and hashed by its host's
// createHash) is told to `signed.onSign` while one is set: after a signature change TypeScript
// signs every importer inside the first affected file's call, so the check's files checked
// were 0 of 31 for 109 s of a 110 s re-check (30 importers of slow types), then all at once.
const signed = { onSign: null };

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
  for (const [name, text] of known.manifests || []) {
    if (text === false ? ts.sys.directoryExists(name) : readManifest(name) !== text) return true;
  }
  return false;
}

// A package.json looked for and not found is kept too (null): one added between files and the
// package scope they had (src/package.json `{"type": "commonjs"}` under the root's name and
// exports) is their new scope, and a reused program kept the old resolutions of the files it
// did not parse again: an .mts, ESM before and after, still reached the root's `exports` by
// its name where tsc -p said TS2307 (TypeScript 5.9.3).
// JSDoc is parsed as tsc parses it (`tsc -p`, `-b` and `--watch` set the host's
// jsDocParsingMode to ParseForTypeErrors since TypeScript 5.3: a TypeScript file's JSDoc only
// where it says @see or @link, a JavaScript file's all): the API's default parses every JSDoc
// comment, the libraries' too, and parsing took 1.38 s of CPU where tsc's took 0.63 s (a
// 21-file project on TypeScript 5.9.3, ES2022's libraries).
//
// A file's parse depends on some options (TypeScript's `affectsSourceFile` ones: jsx,
// jsxImportSource, target...; a program sets a .tsx file's implied jsx-runtime import on the
// parsed file itself), so they are part of its key: tsc's hosts parse a file again when they
// change (`shouldCreateNewSourceFile`), tsserver keys its documents by them. A program made
// after a tsconfig's jsxImportSource edit crashed on the file parsed for the old one
// ("Expected sourceFile.imports[0] to be the synthesized JSX runtime import", 5.9.3).
function makeHost(options) {
  const host = ts.createCompilerHost(options, true);
  host.createHash = (text) => {
    if (signed.onSign) signed.onSign();
    return hash(text);
  };
  const parsing = optionsKey(options);
  if (ts.JSDocParsingMode) host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  host.manifests = new Map();
  const isManifest = (fileName) => path.basename(fileName) === "package.json";
  const readFile = host.readFile;
  host.readFile = (fileName) => {
    const text = readFile.call(host, fileName);
    if (isManifest(fileName)) host.manifests.set(fileName, text === undefined ? null : text);
    return text;
  };
  // A package's folder, or a node_modules, looked for and not there (false): module
  // resolution then asks for no package.json in it, so a package installed since (a
  // project's node_modules made by `npm install`) was never seen and its TS2307 kept.
  const directoryExists = host.directoryExists;
  host.directoryExists = (name) => {
    const found = directoryExists.call(host, name);
    const modules = name.split(/[\\/]/).includes("node_modules");
    if (!found && modules && !host.manifests.has(name)) host.manifests.set(name, false);
    return found;
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
    const key = `${fileName}\0${version}\0${format}\0${parsing}`;
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

// A program made from the last one reuses what its unchanged files resolved, a module not
// found too (tsc --watch's resolution cache looks again where a lookup failed; a plain host has
// none): a module missing for a moment while a check read the disk (`git checkout` writing it
// again) stayed missing for good. ts-pattern after reverts: three TS2307 "Cannot find module
// './internals/helpers'" (and the TS7006 they made) where tsc -p said none, until an importer
// changed. So a file the last check said could not resolve a module resolves its modules again.
const UNRESOLVED = new Set([2307, 2732, 2792, 2834, 2835, 7016]); // Cannot find module ...

function retryUnresolved(host, reported) {
  const again = new Set();
  for (const { file, found } of reported.values()) {
    if (found.some((d) => UNRESOLVED.has(d.code))) again.add(file.path);
  }
  if (again.size) host.hasInvalidatedResolutions = (filePath) => again.has(filePath);
  return host;
}

function optionsKey(options) {
  const affecting = ts.sourceFileAffectingCompilerOptions || [];
  return JSON.stringify(affecting.map((option) => options[option.name] ?? null));
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

module.exports = { hash, signed, manifestsChanged, makeHost, retryUnresolved, changedOnDisk };
