// Which tsconfig would take in a file that is not on disk yet, as TypeScript decides it.
//
//   node tsconfig_owner.js TYPESCRIPT_PACKAGE < {"file": "/abs/new.ts", "configs": [...]}
//
// `configs` are the tsconfig.json / jsconfig.json files above the file, nearest first. Each
// is read by the project's own TypeScript with a directory listing that also shows the new
// file (and its directories, when they are new too), so `files`, `include`, `exclude`,
// `extends` and `allowJs` decide as they will once it is written; a solution config's
// `references` are followed as tsserver follows them. Prints {"config": path or null,
// "files": [its other root files], "read": [every config read, extended ones too]}: the
// first config whose files would include it.
"use strict";

const fs = require("fs");
const path = require("path");

function main() {
  const ts = require(process.argv[2]);
  const asked = JSON.parse(fs.readFileSync(0, "utf8"));
  const file = path.resolve(asked.file);
  const seen = new Set();
  const read = [];
  for (const config of asked.configs) {
    const found = owner(ts, path.resolve(config), file, seen, read);
    if (found) {
      process.stdout.write(JSON.stringify({ ...found, read }));
      return;
    }
  }
  process.stdout.write(JSON.stringify({ config: null, files: [], read }));
}

function owner(ts, config, file, seen, read) {
  if (seen.has(config) || !fs.existsSync(config)) return null;
  seen.add(config);
  read.push(config);
  const parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, host(ts, file));
  if (!parsed) return null;
  const source = parsed.options.configFile;
  read.push(...((source && source.extendedSourceFiles) || []));
  const names = parsed.fileNames.map((name) => path.resolve(name));
  if (names.includes(file)) {
    return { config, files: names.filter((name) => name !== file) };
  }
  for (const reference of parsed.projectReferences || []) {
    const found = owner(ts, ts.resolveProjectReferencePath(reference), file, seen, read);
    if (found) return found;
  }
  return null;
}

// ts.sys, with `file` (and the directories leading to it) in its directory listings.
function host(ts, file) {
  const sys = ts.sys;
  const entries = (directory) => {
    const files = [];
    const directories = [];
    try {
      for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
        let kind = entry;
        if (entry.isSymbolicLink()) {
          try {
            kind = fs.statSync(path.join(directory, entry.name));
          } catch {
            continue;
          }
        }
        if (kind.isFile()) files.push(entry.name);
        else if (kind.isDirectory()) directories.push(entry.name);
      }
    } catch {
      // a directory still to come
    }
    const relative = path.relative(directory, file);
    if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) {
      const first = relative.split(path.sep)[0];
      const list = first === relative ? files : directories;
      if (!list.includes(first)) list.push(first);
    }
    return { files, directories };
  };
  const readDirectory = (root, extensions, excludes, includes, depth) =>
    ts.matchFiles(
      root,
      extensions,
      excludes,
      includes,
      sys.useCaseSensitiveFileNames,
      sys.getCurrentDirectory(),
      depth,
      entries,
      (name) => (fs.existsSync(name) ? sys.realpath(name) : name),
    );
  return {
    ...sys,
    readDirectory: typeof ts.matchFiles === "function" ? readDirectory : sys.readDirectory,
    onUnRecoverableConfigFileDiagnostic: () => {},
  };
}

main();
