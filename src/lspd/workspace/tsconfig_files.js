// The files each tsconfig.json names, as the project's own TypeScript reads them.
//
//   node tsconfig_files.js TYPESCRIPT_PACKAGE < {"configs": [absolute paths]}
//
// Prints {"configs": [{config, files, data, references, extended, errors}]}: every config
// asked and every config they reference (recursively), each once. `files` are the config's
// root files (`files`, `include`, `exclude`, `extends` applied by TypeScript itself) and the
// project's own files they import, `data` the JSON modules they import (resolveJsonModule),
// `errors` the config's own diagnostics ({code, message, fatal, where}). Reimplementing tsconfig's glob and
// `extends` rules by hand would drift from the project's TypeScript; asking it cannot.
"use strict";

const fs = require("fs");
const path = require("path");

function main() {
    const ts = require(process.argv[2]);
    if (typeof ts.getParsedCommandLineOfConfigFile !== "function") {
        process.stdout.write(JSON.stringify({ unsupported: ts.version || "unknown" }));
        return;
    }
    const asked = JSON.parse(fs.readFileSync(0, "utf8")).configs;
    const cache = new Map(); // extended configs, shared by every config parsed
    const seen = new Set();
    const out = [];
    const queue = asked.map((p) => path.resolve(p));
    while (queue.length > 0) {
        const config = queue.shift();
        if (seen.has(config)) continue;
        seen.add(config);
        const read = parse(ts, config, cache);
        out.push(read);
        for (const reference of read.references) queue.push(reference);
    }
    process.stdout.write(JSON.stringify({ version: ts.version, configs: out }));
}

function parse(ts, config, cache) {
    let fatal = null;
    const host = {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
            fatal = d;
        },
    };
    const parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, host, cache);
    if (parsed === undefined) {
        const errors = [report(ts, fatal, true)];
        return { config, files: [], data: [], references: [], extended: [], errors };
    }
    const source = parsed.options.configFile;
    const program = programFiles(ts, parsed);
    return {
        config,
        files: program.files,
        data: program.data,
        references: (parsed.projectReferences || []).map((r) => ts.resolveProjectReferencePath(r)),
        extended: (source && source.extendedSourceFiles) || [],
        errors: ts.getConfigFileParsingDiagnostics(parsed).map((d) => report(ts, d, false)),
    };
}

// The files `tsc -p` checks: the root files and the project's own files they import (a
// `files: ["index.ts"]` project is all of them), never a library's (node_modules, a .d.ts it
// did not name). Found as the compiler finds them, by its module resolution, from each
// file's imports as its scanner lists them (`preProcessFile`): a full parse of a 360-file
// project took 4.3 s of CPU here, this a fraction of it. The JSON modules they import (the
// compiler resolves them under resolveJsonModule alone) are the program's data: apart.
function programFiles(ts, parsed) {
    const files = [...parsed.fileNames];
    const data = files.filter((name) => name.endsWith(".json")); // an include naming them
    const seen = new Set(files);
    const cache = ts.createModuleResolutionCache(process.cwd(), (name) => name, parsed.options);
    const queue = [...files];
    while (queue.length > 0) {
        const file = queue.pop();
        const text = ts.sys.readFile(file);
        if (text === undefined) continue;
        const found = ts.preProcessFile(text, true, true);
        const named = found.importedFiles.map((ref) => {
            const resolved = ts.resolveModuleName(ref.fileName, file, parsed.options, ts.sys, cache);
            const module = resolved.resolvedModule;
            return module && !module.isExternalLibraryImport ? module.resolvedFileName : null;
        });
        for (const ref of found.referencedFiles) {
            named.push(path.resolve(path.dirname(file), ref.fileName));
        }
        for (const name of named) {
            if (!name || seen.has(name) || name.endsWith(".d.ts") || name.includes("/node_modules/")) {
                continue;
            }
            if (name.endsWith(".json") && ts.sys.fileExists(name)) {
                seen.add(name);
                data.push(name);
                continue;
            }
            if (!/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(name) || !ts.sys.fileExists(name)) continue;
            seen.add(name);
            files.push(name);
            queue.push(name);
        }
    }
    return { files, data };
}

function report(ts, diagnostic, fatal) {
    if (!diagnostic) return { code: 0, message: "unreadable", fatal };
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    let where = null; // [file, line, column], 1-based
    if (diagnostic.file && diagnostic.start !== undefined) {
        const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
        where = [diagnostic.file.fileName, line + 1, character + 1];
    }
    return { code: diagnostic.code, message, fatal, where };
}

main();
