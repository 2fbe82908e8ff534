#!/usr/bin/env node
// Entry point of the `wonderlab` command. `serve` runs the whole lab (coordinator and workers on
// Redis); every other command is the shared package's CLI and needs no Redis.
const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') {
  const { serve } = await import('@wonderlab/serve');
  // Explicitly: a connection to a Redis that went away may still be retrying.
  process.exit(await serve(rest));
} else {
  const { main } = await import('@wonderlab/shared/cli');
  process.exitCode = await main(process.argv.slice(2));
}
