// Which tsconfig would take in a file that is not on disk yet, as TypeScript decides it.
//
//   node tsconfig_owner.js TYPESCRIPT_PACKAGE < {"file": "/abs/new.ts", "configs": [...]}
//
// `configs` are the tsconfig.json / jsconfig.json files above the file, nearest first. Each
// is read by the project's own TypeScript with a directory listing that also shows the new
// file (and its directories, when they are new too), so `files`, `include`, `exclude`,
// `extends` and `allowJs` decide as they will once it is written; a solution config's
// `references` are followed as tsserver follows them. Prints {"config": path or null,
// "files": [its other root files], "others": [the other configs its references reach that
// would include it too], "read": [every config read, extended ones too]}: the first config
// whose files would include it.
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
    const held = [];
    holders(ts, path.resolve(config), file, seen, read, held);
    if (held.length) {
      const others = held.slice(1).map((found) => found.config);
      process.stdout.write(JSON.stringify({ ...held[0], others, read }));
      return;
    }
  }
  process.stdout.write(JSON.stringify({ config: null, files: [], others: [], read }));
}

// Each config that would hold `file`, into `held`: `config` itself, else each one its
// references reach, depth first (a solution's programs: `tsc -b` checks the file in each).
function holders(ts, config, file, seen, read, held) {
  if (seen.has(config) || !fs.existsSync(config)) return;
  seen.add(config);
  read.push(config);
  const parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, host(ts, file));
  if (!parsed) return;
  const source = parsed.options.configFile;
  read.push(...((source && source.extendedSourceFiles) || []));
  const names = parsed.fileNames.map((name) => path.resolve(name));
  if (names.includes(file)) {
    held.push({ config, files: names.filter((name) => name !== file) });
    return;
  }
  for (const reference of parsed.projectReferences || []) {
    holders(ts, ts.resolveProjectReferencePath(reference), file, seen, read, held);
  }
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
