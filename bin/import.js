#!/usr/bin/env node
// A larger young generation: the engine allocates many short-lived rows, and the default
// semi-space makes the scavenger run several times as often (2-3x slower dry runs).
import { setFlagsFromString } from 'node:v8';
setFlagsFromString('--max-semi-space-size=32');
const { main, systemDeps } = await import('../dist/main.js');
process.exitCode = await main(process.argv, systemDeps());
