// The files each tsconfig.json names, as the project's own TypeScript reads them.
//
//   node tsconfig_files.js TYPESCRIPT_PACKAGE < {"configs": [absolute paths]}
//
// Prints {"configs": [{config, files, data, declarations, skipLibCheck, references, extended, errors}]}: every config
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
        return { config, files: [], data: [], references: [], extended: [], errors, declarations: [] };
    }
    const source = parsed.options.configFile;
    const program = programFiles(ts, parsed);
    return {
        config,
        files: program.files,
        data: program.data,
        declarations: program.declarations,
        skipLibCheck: program.skipLibCheck,
        references: (parsed.projectReferences || []).map((r) => ts.resolveProjectReferencePath(r)),
        extended: (source && source.extendedSourceFiles) || [],
        errors: ts.getConfigFileParsingDiagnostics(parsed).map((d) => report(ts, d, false)),
    };
}

// The files `tsc -p` checks: the root files and the project's own files its program holds
// (a `files: ["index.ts"]` project is all of them), never a library's (node_modules). Found
// as the compiler finds them: each file's imports by its module resolution, its `/// <reference
// path>` and `/// <reference types>` directives, and the type packages the program holds
// unasked (`compilerOptions.types`, else every package of `typeRoots`), from each file's
// scanner's lists (`preProcessFile`): a full parse of a 360-file project took 4.3 s of CPU
// here, this a fraction of it. A declaration file outside `include` is the program's too
// (`extra/shim.d.ts` referenced, `types/env/index.d.ts` of a typeRoots): tsc reports its errors
// unless skipLibCheck, and its edit breaks its users (`declarations`: those not root files).
// The JSON modules they import (the compiler resolves them under resolveJsonModule alone)
// are the program's data: apart.
function programFiles(ts, parsed) {
    // a `files` entry that is gone is no file of the program (tsc says TS6053 of it)
    const files = parsed.fileNames.filter((name) => ts.sys.fileExists(name));
    const data = files.filter((name) => name.endsWith(".json")); // an include naming them
    const declarations = [];
    const seen = new Set(files);
    const options = parsed.options;
    const cache = ts.createModuleResolutionCache(process.cwd(), (name) => name, options);
    const queue = [...files];
    const take = (name) => {
        if (!name || seen.has(name) || name.includes("/node_modules/")) return;
        if (name.endsWith(".json") && ts.sys.fileExists(name)) {
            seen.add(name);
            data.push(name);
            return;
        }
        if (!/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(name) || !ts.sys.fileExists(name)) return;
        seen.add(name);
        files.push(name);
        queue.push(name);
        if (/\.d\.[mc]?ts$/.test(name)) declarations.push(name);
    };
    for (const name of typeNames(ts, options)) take(typePackage(ts, name, inferred(options), options));
    while (queue.length > 0) {
        const file = queue.pop();
        const text = ts.sys.readFile(file);
        if (text === undefined) continue;
        const found = ts.preProcessFile(text, true, true);
        for (const ref of found.importedFiles) {
            const resolved = ts.resolveModuleName(ref.fileName, file, options, ts.sys, cache);
            const module = resolved.resolvedModule;
            take(module && !module.isExternalLibraryImport ? module.resolvedFileName : null);
        }
        for (const ref of found.referencedFiles) take(referenced(ts, file, ref.fileName));
        for (const ref of found.typeReferenceDirectives) {
            take(typePackage(ts, ref.fileName, file, options));
        }
    }
    return { files, data, declarations, skipLibCheck: Boolean(options.skipLibCheck) };
}

// The type packages a program holds unasked: `types`, else every package of its typeRoots.
function typeNames(ts, options) {
    if (typeof ts.getAutomaticTypeDirectiveNames !== "function") return options.types || [];
    return ts.getAutomaticTypeDirectiveNames(options, ts.sys);
}

// The file the compiler resolves those names from: beside the tsconfig.
function inferred(options) {
    const where = options.configFilePath ? path.dirname(options.configFilePath) : process.cwd();
    return path.join(where, "__inferred type names__.ts");
}

function typePackage(ts, name, containing, options) {
    const resolved = ts.resolveTypeReferenceDirective(name, containing, options, ts.sys);
    const found = resolved.resolvedTypeReferenceDirective;
    return found && found.resolvedFileName && !found.isExternalLibraryImport
        ? path.resolve(found.resolvedFileName)
        : null;
}

// A `/// <reference path>`'s file: as named, else with the extensions the compiler tries.
function referenced(ts, file, name) {
    const base = path.resolve(path.dirname(file), name);
    if (/\.(d\.ts|ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(base)) return base;
    for (const extension of [".ts", ".tsx", ".d.ts"]) {
        if (ts.sys.fileExists(base + extension)) return base + extension;
    }
    return null;
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
