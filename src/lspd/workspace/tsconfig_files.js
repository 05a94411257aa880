// The files each tsconfig.json names, as the project's own TypeScript reads them.
//
//   node tsconfig_files.js TYPESCRIPT_PACKAGE < {"configs": [absolute paths]}
//
// Prints {"configs": [{config, files, references, extended, errors}]}: every config asked
// and every config they reference (recursively), each once. `files` are the config's root
// files (`files`, `include`, `exclude`, `extends` applied by TypeScript itself), `errors`
// the config's own diagnostics ({code, message, fatal}). Reimplementing tsconfig's glob and
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
        return { config, files: [], references: [], extended: [], errors: [report(ts, fatal, true)] };
    }
    const source = parsed.options.configFile;
    return {
        config,
        files: parsed.fileNames,
        references: (parsed.projectReferences || []).map((r) => ts.resolveProjectReferencePath(r)),
        extended: (source && source.extendedSourceFiles) || [],
        errors: ts.getConfigFileParsingDiagnostics(parsed).map((d) => report(ts, d, false)),
    };
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
