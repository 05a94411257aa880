// Preloaded into a Node language server (`--require`, servers.toml's NODE_OPTIONS): once the
// server has been idle for a while after work that grew its heap, one memory-reducing
// collection returns to the system what the work left behind.
//
// Why: V8 collects lazily while the heap is far below its limit (4 GB here), and keeps the
// pages it freed. basedpyright drops its whole type cache on any edit and builds a new one,
// so each re-check after a declaration change leaves the old cache's hundreds of MB as
// garbage, resident: on SQLAlchemy its process grew 1,095 -> 1,891 MB over six edits while
// what is live stays near the cold check's. A plain gc() frees the objects but keeps the
// pages; the "last-resort" flavour (CollectAllAvailableGarbage) also shrinks the heap.
//
// When: sampled every TICK_MS; the event loop was busy less than IDLE_SHARE of the last
// IDLE_TICKS ticks (no request is being answered), and the committed heap is GROWTH times
// the size left by the last collection plus SLACK_MB. A small edit's check grows it little
// and costs nothing; the collection blocks the server while it runs (seconds on a loaded
// machine: a plain gc() of basedpyright's 820 MB heap took 6-8 s at load 13-15), at a time
// nobody was asking.
'use strict';

const v8 = require('v8');
const vm = require('vm');
const { performance } = require('perf_hooks');

const TICK_MS = 500;
const IDLE_TICKS = 16; // eight seconds without work
const IDLE_SHARE = 0.02;
const GROWTH = 1.15;
const SLACK_MB = 32;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc'); // exposed to this context only, not to the server's
v8.setFlagsFromString('--no-expose-gc');

const committed = () => v8.getHeapStatistics().total_heap_size;
let floor = committed();
let quiet = 0;
let last = performance.eventLoopUtilization();

const timer = setInterval(() => {
  const now = performance.eventLoopUtilization();
  const busy = performance.eventLoopUtilization(now, last).utilization;
  last = now;
  quiet = busy < IDLE_SHARE ? quiet + 1 : 0;
  if (quiet < IDLE_TICKS || committed() < floor * GROWTH + SLACK_MB * 2 ** 20) return;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  floor = committed();
  quiet = 0;
  last = performance.eventLoopUtilization();
}, TICK_MS);
timer.unref(); // never what keeps the server alive
