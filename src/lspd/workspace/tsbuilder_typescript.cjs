// The TypeScript package the builder runs on (`node tsbuilder.cjs <typescript package directory>`):
// the project's own, loaded once and shared by the builder's modules.
"use strict";

const path = require("path");

module.exports = require(path.join(process.argv[2], "lib", "typescript.js"));
