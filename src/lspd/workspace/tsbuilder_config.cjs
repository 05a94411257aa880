// A tsconfig as the builder reads it: its parsed command line, the options a check runs with,
// and what `tsc -p --listFilesOnly` would say of the program's JSON files.
"use strict";

const ts = require("./tsbuilder_typescript.cjs");

// What `tsc -p --listFilesOnly` says of the program's JSON files (its configuration's parsing
// errors, a JSON module's syntax errors, and its options' errors when no file has a syntax
// error), tsc's lines as they are, so lspd reads a TypeScript 5 configuration's errors from
// the program it checks, not from a tsc of its own: that listing re-read and re-parsed every
// file (2.2 of the 2.5 s of a daemon's first check after a file came or went, a 21-file
// project at load 8). Where the tsconfig does not say noEmit itself (the builder's options
// add it) its options' errors are those of a program with the tsconfig's own options
// (`emitting`): tsc's checks of where it writes (TS5055: a JavaScript file's output would
// overwrite it; TS5056) are not the builder's, which emits nothing.
function listing(builder, emitting) {
  const program = builder.getProgram();
  const syntax = program.getSyntacticDiagnostics();
  const found = [...program.getConfigFileParsingDiagnostics(), ...syntax];
  if (!syntax.length) found.push(...optionsErrors(program, emitting));
  const said = found.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return said
    .filter((d) => !d.file || d.file.fileName.endsWith(".json"))
    .map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      return at ? [d.file.fileName, at.line + 1, at.character + 1, d.code, text] : [null, 1, 1, d.code, text];
    });
}

// The program's options' errors; where it emits (`emitting`: the tsconfig's own options), with
// tsc's checks of where it writes (TS5055, TS5056: global, no file), which the builder's
// noEmit leaves out. Those come of a program of the tsconfig's options made from the builder's,
// every parsed file and resolution reused (nothing read, parsed or resolved again: milliseconds)
// and no checker made; lspd ran a tsc of its own for them, 1.1 s of ky's one-shot check's 6 s.
// Its options are given without the parsed tsconfig (`configFile`, not enumerable: the spread
// leaves it): a program made from one of the same tsconfig says none of them (5.9.3).
function optionsErrors(program, emitting) {
  const own = program.getOptionsDiagnostics();
  if (!emitting) return own;
  const options = { ...emitting };
  const base = ts.createCompilerHost(options);
  const host = { ...base, getSourceFile: (name, ...rest) => parsed(program, name) || base.getSourceFile(name, ...rest) };
  const rootNames = program.getRootFileNames();
  const projectReferences = program.getProjectReferences();
  const made = ts.createProgram({ rootNames, options, host, oldProgram: reusable(program), projectReferences });
  const writes = made.getOptionsDiagnostics().filter((d) => !d.file && WRITES.has(d.code));
  return writes.length ? ts.sortAndDeduplicateDiagnostics([...own, ...writes]) : own;
}

const WRITES = new Set([5055, 5056]); // an output over an input; two inputs onto one output

// The file `program` parsed for `name`: a package installed twice at one version (superstruct's
// pretty-format under two packages) is one file and a redirect to it, which a host must never
// give ("Host should not return a redirect source file from `getSourceFile`"): its own file.
function parsed(program, name) {
  const file = program.getSourceFile(name);
  return file && file.redirectInfo ? file.redirectInfo.unredirected : file;
}

// `program` as an old program a second program may reuse: TypeScript before 4.0 marks the old
// program itself as reused and asserts it never is twice ("Debug Failure. False expression.
// at tryReuseStructureFromOldProgram", 3.9.7), and the builder's next program reuses it too.
// Without it the host above still gives the parsed files; only resolutions are made again.
function reusable(program) {
  return Number(ts.versionMajorMinor.split(".")[0]) >= 4 ? program : undefined;
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
// `emitDeclarationOnly` beside that noEmit is TS5053 before TypeScript 5.6 ("cannot be
// specified with option 'noEmit'"), an options error tsc -b never says of the project (it
// emits): the check stopped at it, 0 errors where tsc -b says them (a composite monorepo's
// usual setting, 5.4.5). It is left out where it asks nothing of the check: the program
// declares (else TS5069, which tsc says, stays) and noEmit is the builder's, not the tsconfig's.
function checkOptions(parsed) {
  const options = { ...parsed.options, noEmit: true, removeComments: true };
  const declares = parsed.options.declaration || parsed.options.composite;
  if (declares && parsed.options.noEmit !== true) delete options.emitDeclarationOnly;
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

module.exports = { listing, checkOptions, parsedConfig };
