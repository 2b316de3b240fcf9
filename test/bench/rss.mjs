// Preloaded with `node --import`: prints the process's peak RSS (KiB) to stderr on exit, for the benchmarks.
process.on('exit', () => {
  process.stderr.write(`\n@@maxrss ${process.resourceUsage().maxRSS}\n`);
});
