// The builders kept per tsconfig between checks, and the memory their old programs hold: the
// old checker collected during a big re-check, and once idle the checkers dropped and the
// freed pages given back.
"use strict";

const v8 = require("v8");
const ts = require("./tsbuilder_typescript.cjs");
const { makeHost } = require("./tsbuilder_sources.cjs");
const { signAhead } = require("./tsbuilder_signing.cjs");

const GC_AFTER = 50; // files checked anew
const COLLECT_AT = 20; // files checked anew: collectOldChecker
const GC_IDLE_MS = 1000; // the collection after a big check waits this long for no request
const SLICE_MS = 50; // idle work runs in slices this long, a request served between two
const PRESSURE = 0.5; // of V8's heap limit, in use after a check: the other checkers dropped
const projects = new Map(); // config path -> {builder, host, reported: name -> {file, found}}

// The kept program of `configPath` made again over its parsed files, without the checker that
// checked it (why: signAhead, tsbuilder_signing.cjs).
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

// Runs `collect` and says on stderr (the helper's log) how long it took and what it left (the
// heap's `floor`).
function logged(what, collect) {
  const [began, before] = [Date.now(), mb(process.memoryUsage.rss())];
  collect();
  const after = process.memoryUsage();
  floor = after.heapUsed; // what the programs hold, collected
  const said = `resident ${before} -> ${mb(after.rss)} MB, heap used ${mb(after.heapUsed)} MB`;
  process.stderr.write(`tsbuilder: ${what} in ${Date.now() - began} ms: ${said}\n`);
}

function mb(bytes) {
  return Math.round(bytes / 2 ** 20); // `>> 20` wraps past 2 GB
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
    for (const configPath of [...projects.keys()]) dropOrForget(configPath);
    global.gc({ type: "major", execution: "sync", flavor: "last-resort" });
  });
}

// The checkers of every program but `current`'s dropped at once (dropChecker) and collected,
// where the heap in use after a check passes PRESSURE of V8's limit, or halfway from what the
// last collection left (`floor`: the programs themselves) to the limit. One program checked
// after another (a monorepo's tsconfigs: redux-toolkit's 38, each an example with its own
// React and DOM types) kept each checker until the helper was idle, and its cold check
// reached the limit (~4 GB) on its 30th: "JavaScript heap out of memory", the check lost. A
// dropped checker is what the idle work leaves anyway. Not again while the heap stays near
// its floor: redux-toolkit's 38 programs alone hold 2.25 GB, and a collection after every
// program's check (5 s each at that size) made a leaf edit's check 171 s.
let floor = 0;

function relieve(current) {
  const { used_heap_size: used, heap_size_limit: limit } = v8.getHeapStatistics();
  if (!global.gc || used < Math.max(PRESSURE * limit, (floor + limit) / 2)) return;
  logged("checkers dropped under pressure", () => {
    for (const [configPath, known] of [...projects]) {
      if (configPath === current || known.checkerDropped) continue;
      dropOrForget(configPath);
    }
    global.gc();
  });
}

// dropChecker, or where it fails the builder forgotten: its next check starts afresh.
function dropOrForget(configPath) {
  try {
    dropChecker(configPath);
  } catch (error) {
    projects.delete(configPath);
    process.stderr.write(`tsbuilder: ${configPath}: ${error && error.stack ? error.stack : error}\n`);
  }
}

// A check or preview left garbage enough for the idle collection.
function owe() {
  collectionOwed = true;
}

// A request came: the idle work waits for the next pause.
function cancelIdle() {
  clearTimeout(collection);
}

module.exports = { projects, GC_AFTER, COLLECT_AT, collectOldChecker, collectWhenIdle, owe, cancelIdle, relieve };
